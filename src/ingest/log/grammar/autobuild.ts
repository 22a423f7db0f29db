import type {ParsedEvent} from '../events.js'
import {parseParams, toInt} from './text.js'
import {note} from './note.js'

/** `guardkit.orchestrator.autobuild` — the per-task loop (FORMATS.md §5.4, two autobuild sections). */
export function parseAutobuild(level: string, m: string): ParsedEvent | null {
  const c0 = m.charCodeAt(0)
  let r: RegExpExecArray | null
  if (c0 === 0x43 /* C */) {
    if ((r = /^Criteria Progress \(Turn (\d+)\): (\d+)\/(\d+) verified \((\d+)%\)/.exec(m)))
      return {kind: 'ab-criteria-progress', turn: Number(r[1]), met: Number(r[2]), total: Number(r[3]), percent: Number(r[4])}
    if ((r = /^Criteria: (\d+) verified, (\d+) rejected, (\d+) pending/.exec(m)))
      return {kind: 'ab-criteria-counts', verified: Number(r[1]), rejected: Number(r[2]), pending: Number(r[3])}
    if ((r = /^Checkpoint created: ([0-9a-f]+) for turn (\d+)/.exec(m))) return {kind: 'ab-checkpoint', hash: r[1]!, turn: Number(r[2])}
    if ((r = /^Coach (approved on|provided feedback on) turn (\d+)/.exec(m)))
      return {kind: 'ab-coach-turn', turn: Number(r[2]), decision: r[1] === 'approved on' ? 'approve' : 'feedback'}
    if ((r = /^Coach verdict-emission failed in \w+ path for (TASK-[\w-]*\w) turn (\d+): /.exec(m)))
      return {kind: 'ab-verdict-failed', taskId: r[1]!, turn: Number(r[2]), message: m.slice(r[0].length)}
    if ((r = /^Cancellation detected for (TASK-[\w-]*\w) between Player and Coach at turn (\d+)/.exec(m)))
      return {kind: 'ab-cancel', taskId: r[1]!, turn: Number(r[2]), where: 'between-player-and-coach'}
    if ((r = /^Cancellation detected after turn (\d+) for (TASK-[\w-]*\w)/.exec(m)))
      return {kind: 'ab-cancel', taskId: r[2]!, turn: Number(r[1]), where: 'after-turn'}
    if ((r = /^Cancellation requested for (TASK-[\w-]*\w) at turn (\d+)/.exec(m)))
      return {kind: 'ab-cancel', taskId: r[1]!, turn: Number(r[2]), where: 'other'}
    if ((r = /^Critical error on turn (\d+)/.exec(m))) return {kind: 'ab-critical-error', turn: Number(r[1])}
    if (/^(Carried forward|Cumulative requirements_addressed|Coach context|Checkpoint manager|Created per-thread|Continuing from turn)/.test(m))
      return note('autobuild-context')
    return null
  }
  if ((r = /^Executing turn (\d+)\/(\d+)/.exec(m))) return {kind: 'ab-exec-turn', turn: Number(r[1]), maxTurns: Number(r[2])}
  if ((r = /^Orchestration complete: (TASK-[\w-]*\w), decision=(\w+), turns=(\d+)/.exec(m)))
    return {kind: 'ab-complete', taskId: r[1]!, decision: r[2]!, turns: Number(r[3])}
  if ((r = /^Starting orchestration for (TASK-[\w-]*\w) \(resume=(\w+)\)/.exec(m))) return {kind: 'ab-start', taskId: r[1]!, resume: r[2] === 'True'}
  if (m.startsWith('AutoBuildOrchestrator initialized: ')) return {kind: 'ab-init', params: parseParams(m.slice(35))}
  if ((r = /^Phase 2 \(Loop\): Starting adversarial turns for (TASK-[\w-]*\w) from turn (\d+)/.exec(m)))
    return {kind: 'ab-loop', taskId: r[1]!, fromTurn: Number(r[2])}
  if ((r = /^Using (CoachValidator|LLM Coach \(\w+\)) for (TASK-[\w-]*\w) turn (\d+)/.exec(m)))
    return {kind: 'ab-use-coach', taskId: r[2]!, turn: Number(r[3]), coach: r[1] === 'CoachValidator' ? 'validator' : 'llm'}
  if ((r = /^Perspective reset triggered at turn (\d+)/.exec(m))) return {kind: 'ab-perspective-reset', turn: Number(r[1])}
  if ((r = /^Attempting state recovery for (TASK-[\w-]*\w) turn (\d+) after Player failure: ?/.exec(m)))
    return {kind: 'ab-recovery-attempt', taskId: r[1]!, turn: Number(r[2]), reason: m.slice(r[0].length)}
  if ((r = /^State recovery succeeded via (\w+)(?:: (\d+) files, (\d+) tests \((\w+)\))?/.exec(m)))
    return {kind: 'ab-recovery-ok', method: r[1]!, files: toInt(r[2]), tests: toInt(r[3]), passing: r[4] === undefined ? null : r[4] === 'passing'}
  if ((r = /^\[Turn (\d+)\] (Building synthetic report|Passing synthetic report to Coach)/.exec(m))) {
    const task = /for (TASK-[\w-]*\w)/.exec(m)?.[1]
    return {kind: 'ab-synthetic', turn: Number(r[1]), step: r[2]!.startsWith('Building') ? 'build' : 'pass', text: m, ...(task ? {taskId: task} : {})}
  }
  if ((r = /^ {2}(AC-[\w.-]+): (.*)/s.exec(m))) return {kind: 'ab-ac', id: r[1]!, text: r[2]!}
  if ((r = /^Feedback stall: identical feedback \(sig=([0-9a-f]+)\) for (\d+) turns with (\d+) criteria passing/.exec(m)))
    return {kind: 'ab-stall-warning', signature: r[1]!, turns: Number(r[2]), passing: Number(r[3]), extended: m.includes('extended threshold')}
  if ((r = /^Feedback stall detected for (TASK-[\w-]*\w): /.exec(m))) {
    const v2 = /no criteria progress \((\d+) criteria passing\)/.exec(m)
    return {kind: 'ab-stall-error', taskId: r[1]!, wording: v2 ? 'stall-error-v2' : 'stall-error-v1', text: m, passing: v2 ? Number(v2[1]) : null}
  }
  if ((r = /^Partial progress stall warning: (\d+) criteria passing but stuck for (\d+) turns\. Extended threshold: (\d+)/.exec(m)))
    return {kind: 'ab-partial-stall', passing: Number(r[1]), turns: Number(r[2]), threshold: Number(r[3])}
  if ((r = /^Unrecoverable stall detected for (TASK-[\w-]*\w): /.exec(m))) return {kind: 'ab-pollution-stall', taskId: r[1]!, text: m}
  if ((r = /^Player-invocation stall detected for (TASK-[\w-]*\w): /.exec(m))) return {kind: 'ab-invocation-stall', taskId: r[1]!, text: m, fatal: true}
  if (m.startsWith('Player-invocation stall: ')) return {kind: 'ab-invocation-stall', text: m, fatal: false}
  if ((r = /^Max turns \((\d+)\) exceeded for (TASK-[\w-]*\w)/.exec(m))) return {kind: 'ab-max-turns', taskId: r[2]!, maxTurns: Number(r[1])}
  if ((r = /^Timeout budget exhausted for (TASK-[\w-]*\w) at turn (\d+)(?:: remaining=([\d.]+)s < min=([\d.]+)s)?/.exec(m)))
    return {kind: 'ab-timeout-budget', taskId: r[1]!, turn: Number(r[2]), remaining: toInt(r[3]), min: toInt(r[4])}
  if ((r = /^Orchestration failed for (TASK-[\w-]*\w): /.exec(m))) return {kind: 'ab-orchestration-failed', taskId: r[1]!, message: m.slice(r[0].length)}
  if ((r = /rolling back from turn (\d+) to turn (\d+)/.exec(m))) return {kind: 'ab-rollback', turn: Number(r[1]), toTurn: Number(r[2])}
  if (/^\[TASK-[\w-]*\w\] Skipping orchestrator Phase/.test(m)) return note('autobuild-info')
  if (m.startsWith('Unknown CriterionStatus value')) return note('unknown-criterion-status')
  if (m.startsWith('State recovery successful for ')) return note('recovery-successful')
  if (/^(Phase \d \(|Worktree preserved at |Using existing worktree|Stored Graphiti|Turn state saved|Player context|\[Graphiti\]|Per-thread|Error capturing turn state|claude-agent-sdk version|Worktree created|Pruned|Generated \d+|Turn \d+ honesty|Wrote synthetic feedback)/.test(m))
    return note('autobuild-info')
  return level === 'ERROR' && m.startsWith('Orchestration failed') ? {kind: 'ab-orchestration-failed', message: m} : null
}
