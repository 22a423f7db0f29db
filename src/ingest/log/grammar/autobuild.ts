import type {ParsedEvent} from '../events.js'
import {parseParams, toInt} from './text.js'
import {note} from './note.js'

/** `guardkit.orchestrator.autobuild` — the per-task loop (docs/record-formats.md §5.4, two autobuild sections). */
export function parseAutobuild(level: string, m: string): ParsedEvent | null {
  const c0 = m.charCodeAt(0)
  let r: RegExpExecArray | null
  if (c0 === 0x43 /* C */) {
    // C records are many: dispatch on the second character too (rules in their original order)
    switch (m.charCodeAt(1)) {
      case 0x72 /* r */:
        if ((r = /^Criteria Progress \(Turn (\d+)\): (\d+)\/(\d+) verified \((\d+)%\)/.exec(m)))
          return {kind: 'ab-criteria-progress', turn: Number(r[1]), met: Number(r[2]), total: Number(r[3]), percent: Number(r[4])}
        if ((r = /^Criteria: (\d+) verified, (\d+) rejected, (\d+) pending/.exec(m)))
          return {kind: 'ab-criteria-counts', verified: Number(r[1]), rejected: Number(r[2]), pending: Number(r[3])}
        if ((r = /^Critical error on turn (\d+)/.exec(m))) return {kind: 'ab-critical-error', turn: Number(r[1])}
        break
      case 0x68 /* h */:
        if ((r = /^Checkpoint created: ([0-9a-f]+) for turn (\d+)/.exec(m))) return {kind: 'ab-checkpoint', hash: r[1]!, turn: Number(r[2])}
        break
      case 0x6f /* o */:
        if ((r = /^Coach (approved on|provided feedback on) turn (\d+)/.exec(m)))
          return {kind: 'ab-coach-turn', turn: Number(r[2]), decision: r[1] === 'approved on' ? 'approve' : 'feedback'}
        if ((r = /^Coach verdict-emission failed in \w+ path for (TASK-[\w-]*\w) turn (\d+): /.exec(m)))
          return {kind: 'ab-verdict-failed', taskId: r[1]!, turn: Number(r[2]), message: m.slice(r[0].length)}
        break
      case 0x61 /* a */:
        if ((r = /^Cancellation detected for (TASK-[\w-]*\w) between Player and Coach at turn (\d+)/.exec(m)))
          return {kind: 'ab-cancel', taskId: r[1]!, turn: Number(r[2]), where: 'between-player-and-coach'}
        if ((r = /^Cancellation detected after turn (\d+) for (TASK-[\w-]*\w)/.exec(m)))
          return {kind: 'ab-cancel', taskId: r[2]!, turn: Number(r[1]), where: 'after-turn'}
        if ((r = /^Cancellation requested for (TASK-[\w-]*\w) at turn (\d+)/.exec(m)))
          return {kind: 'ab-cancel', taskId: r[1]!, turn: Number(r[2]), where: 'other'}
        break
    }
    if (/^(Carried forward|Cumulative requirements_addressed|Coach context|Checkpoint manager|Created per-thread|Continuing from turn)/.test(m))
      return note('autobuild-context')
    // the loop's own rollback record starts with C (docs/guardkit-logic.md §8.1: "Context pollution detected, rolling back …")
    return rollback(m)
  }
  // Dispatch on the first character: each rule below is anchored (`^X`), so a message only tries
  // the rules that can match its first character, in their original order. The unanchored
  // rollback rule comes between the two switches, where it stood in the one list of rules.
  switch (c0) {
    case 0x45 /* E */:
      if ((r = /^Executing turn (\d+)\/(\d+)/.exec(m))) return {kind: 'ab-exec-turn', turn: Number(r[1]), maxTurns: Number(r[2])}
      break
    case 0x4f /* O */:
      if ((r = /^Orchestration complete: (TASK-[\w-]*\w), decision=(\w+), turns=(\d+)/.exec(m)))
        return {kind: 'ab-complete', taskId: r[1]!, decision: r[2]!, turns: Number(r[3])}
      if ((r = /^Orchestration failed for (TASK-[\w-]*\w): /.exec(m))) return {kind: 'ab-orchestration-failed', taskId: r[1]!, message: m.slice(r[0].length)}
      break
    case 0x53 /* S */:
      if ((r = /^Starting orchestration for (TASK-[\w-]*\w) \(resume=(\w+)\)/.exec(m))) return {kind: 'ab-start', taskId: r[1]!, resume: r[2] === 'True'}
      if ((r = /^State recovery succeeded via (\w+)(?:: (\d+) files, (\d+) tests \((\w+)\))?/.exec(m)))
        return {kind: 'ab-recovery-ok', method: r[1]!, files: toInt(r[2]), tests: toInt(r[3]), passing: r[4] === undefined ? null : r[4] === 'passing'}
      break
    case 0x41 /* A */:
      if (m.startsWith('AutoBuildOrchestrator initialized: ')) return {kind: 'ab-init', params: parseParams(m.slice(35))}
      if ((r = /^Attempting state recovery for (TASK-[\w-]*\w) turn (\d+) after Player failure: ?/.exec(m)))
        return {kind: 'ab-recovery-attempt', taskId: r[1]!, turn: Number(r[2]), reason: m.slice(r[0].length)}
      break
    case 0x50 /* P */:
      if ((r = /^Phase 2 \(Loop\): Starting adversarial turns for (TASK-[\w-]*\w) from turn (\d+)/.exec(m)))
        return {kind: 'ab-loop', taskId: r[1]!, fromTurn: Number(r[2])}
      if ((r = /^Perspective reset triggered at turn (\d+)/.exec(m))) return {kind: 'ab-perspective-reset', turn: Number(r[1])}
      if ((r = /^Partial progress stall warning: (\d+) criteria passing but stuck for (\d+) turns\. Extended threshold: (\d+)/.exec(m)))
        return {kind: 'ab-partial-stall', passing: Number(r[1]), turns: Number(r[2]), threshold: Number(r[3])}
      if ((r = /^Player-invocation stall detected for (TASK-[\w-]*\w): /.exec(m))) return {kind: 'ab-invocation-stall', taskId: r[1]!, text: m, fatal: true}
      if (m.startsWith('Player-invocation stall: ')) return {kind: 'ab-invocation-stall', text: m, fatal: false}
      break
    case 0x55 /* U */:
      if ((r = /^Using (CoachValidator|LLM Coach \(\w+\)) for (TASK-[\w-]*\w) turn (\d+)/.exec(m)))
        return {kind: 'ab-use-coach', taskId: r[2]!, turn: Number(r[3]), coach: r[1] === 'CoachValidator' ? 'validator' : 'llm'}
      if ((r = /^Unrecoverable stall detected for (TASK-[\w-]*\w): /.exec(m))) return {kind: 'ab-pollution-stall', taskId: r[1]!, text: m}
      break
    case 0x5b /* [ */:
      if ((r = /^\[Turn (\d+)\] (Building synthetic report|Passing synthetic report to Coach)/.exec(m))) {
        const task = /for (TASK-[\w-]*\w)/.exec(m)?.[1]
        return {kind: 'ab-synthetic', turn: Number(r[1]), step: r[2]!.startsWith('Building') ? 'build' : 'pass', text: m, ...(task ? {taskId: task} : {})}
      }
      break
    case 0x20 /* space */:
      if ((r = /^ {2}(AC-[\w.-]+): (.*)/s.exec(m))) return {kind: 'ab-ac', id: r[1]!, text: r[2]!}
      break
    case 0x46 /* F */:
      if ((r = /^Feedback stall: identical feedback \(sig=([0-9a-f]+)\) for (\d+) turns with (\d+) criteria passing/.exec(m)))
        return {kind: 'ab-stall-warning', signature: r[1]!, turns: Number(r[2]), passing: Number(r[3]), extended: m.includes('extended threshold')}
      if ((r = /^Feedback stall detected for (TASK-[\w-]*\w): /.exec(m))) {
        const v2 = /no criteria progress \((\d+) criteria passing\)/.exec(m)
        return {kind: 'ab-stall-error', taskId: r[1]!, wording: v2 ? 'stall-error-v2' : 'stall-error-v1', text: m, passing: v2 ? Number(v2[1]) : null}
      }
      break
    case 0x4d /* M */:
      if ((r = /^Max turns \((\d+)\) exceeded for (TASK-[\w-]*\w)/.exec(m))) return {kind: 'ab-max-turns', taskId: r[2]!, maxTurns: Number(r[1])}
      break
    case 0x54 /* T */:
      if ((r = /^Timeout budget exhausted for (TASK-[\w-]*\w) at turn (\d+)(?:: remaining=([\d.]+)s < min=([\d.]+)s)?/.exec(m)))
        return {kind: 'ab-timeout-budget', taskId: r[1]!, turn: Number(r[2]), remaining: toInt(r[3]), min: toInt(r[4])}
      break
  }
  // unanchored, so tried whatever the first character
  const back = rollback(m)
  if (back !== null) return back
  switch (c0) {
    case 0x5b /* [ */:
      if (/^\[TASK-[\w-]*\w\] Skipping orchestrator Phase/.test(m)) return note('autobuild-info')
      break
    case 0x55 /* U */:
      if (m.startsWith('Unknown CriterionStatus value')) return note('unknown-criterion-status')
      break
    case 0x53 /* S */:
      if (m.startsWith('State recovery successful for ')) return note('recovery-successful')
      break
  }
  if (AB_INFO_FIRST.includes(m.charAt(0)) && AB_INFO.test(m)) return note('autobuild-info')
  return level === 'ERROR' && c0 === 0x4f /* O */ && m.startsWith('Orchestration failed') ? {kind: 'ab-orchestration-failed', message: m} : null
}

/** Routine records kept as a note; AB_INFO_FIRST lists the first characters its alternatives can start with. */
const AB_INFO = /^(Phase \d \(|Worktree preserved at |Using existing worktree|Stored Graphiti|Turn state saved|Player context|\[Graphiti\]|Per-thread|Error capturing turn state|claude-agent-sdk version|Worktree created|Pruned|Generated \d+|Turn \d+ honesty|Wrote synthetic feedback)/
const AB_INFO_FIRST = 'PWUST[EcG'

/** `… rolling back from turn N to turn M` (the plain search first: it is cheaper than a failing exec). */
function rollback(m: string): ParsedEvent | null {
  const r = m.includes('rolling back from turn ') ? /rolling back from turn (\d+) to turn (\d+)/.exec(m) : null
  return r === null ? null : {kind: 'ab-rollback', turn: Number(r[1]), toTurn: Number(r[2])}
}
