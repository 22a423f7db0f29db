import type {ParsedEvent} from '../events.js'
import {artifactOfPath, parsePyStrList, toInt} from './text.js'
import {note} from './note.js'
import {intern} from '../build/keep.js'

const TASK_PREFIX = /^\[(TASK-[\w-]*\w)\] /
/** The first characters of the alternatives of the invoker-info and (task line) invoker-task notes. */
const INVOKER_INFO_FIRST = 'BCEFGIRSTW'
const TASK_INFO_FIRST = 'ADFHPRSWp'

/** `guardkit.orchestrator.agent_invoker` — Player invocation and report pipeline. */
export function parseAgentInvoker(level: string, m: string): ParsedEvent | null {
  let r: RegExpExecArray | null
  // the most frequent record of a log (a heartbeat every 30 s per running task)
  if (m.endsWith('elapsed)') && m.includes(' in progress... (')) return note('invoker-progress')
  if (m.charCodeAt(0) === 0x5b /* [ */) {
    const p = TASK_PREFIX.exec(m)
    if (p) return parseTaskLine(level, p[1]!, m.slice(p[0].length))
  }
  // Dispatch on the first character: each rule below is anchored, so a message only tries the
  // rules that can match its first character, in their original order.
  switch (m.charCodeAt(0)) {
    case 0x49 /* I */:
      if ((r = /^Invoking Player via (task-work delegation|direct SDK) for (TASK-[\w-]*\w) \(turn (\d+)\)/.exec(m)))
        return {kind: 'ai-invoke', taskId: r[2]!, turn: Number(r[3]), mode: r[1] === 'direct SDK' ? 'direct' : 'task-work'}
      if ((r = /^Implementation plan not found for (TASK-[\w-]*\w)/.exec(m))) return {kind: 'ai-error', taskId: r[1]!, text: m}
      break
    case 0x52 /* R */:
      if ((r = /^Routing to direct Player path for (TASK-[\w-]*\w)/.exec(m))) return {kind: 'ai-mode', taskId: r[1]!, mode: 'direct'}
      if ((r = /^Recovered (\d+) (\w+) from agent-written player report for (TASK-[\w-]*\w)/.exec(m)))
        return {kind: 'ai-recovered', taskId: r[3]!, what: r[2]!, count: Number(r[1])}
      break
    case 0x43 /* C */:
      if ((r = /^Created Player report from task_work_results\.json for (TASK-[\w-]*\w) turn (\d+)/.exec(m)))
        return {kind: 'ai-player-report', taskId: r[1]!, turn: Number(r[2]), how: 'task-work'}
      break
    case 0x57 /* W */:
      if (m.startsWith('Written Player report to ') || m.startsWith('Wrote direct mode player report to ')) {
        const a = artifactOfPath(m)
        const how = m.startsWith('Written') ? 'written' : 'direct'
        return a ? {kind: 'ai-player-report', taskId: a.taskId, turn: a.turn, how} : {kind: 'ai-player-report', how}
      }
      if (m.startsWith('Wrote task_work_results.json to ') || m.startsWith('Wrote direct mode results to ') || m.startsWith('Wrote failure results to ')) return note('invoker-results')
      break
    case 0x53 /* S */:
      if ((r = /^SDK did not write player_turn_(\d+)\.json for (TASK-[\w-]*\w)/.exec(m)))
        return {kind: 'ai-player-report', taskId: r[2]!, turn: Number(r[1]), how: 'synthetic'}
      if ((r = /^SDK completed: turns=(\w+)/.exec(m))) return {kind: 'ai-sdk-turns', used: toInt(r[1]), max: null}
      break
    case 0x47 /* G */:
      if ((r = /^Git detection added: (\d+) modified, (\d+) created files for (TASK-[\w-]*\w)/.exec(m)))
        return {kind: 'ai-git-detect', taskId: r[3]!, modified: Number(r[1]), created: Number(r[2])}
      break
    case 0x74 /* t */:
    case 0x55 /* U */:
    case 0x45 /* E */:
    case 0x54 /* T */:
      if (/^(?:task-work completed successfully for|Updated task_work_results\.json with enriched data for|Ensuring task|Task) TASK-/.test(m)) return note('invoker-task')
      break
  }
  if (INVOKER_INFO_FIRST.includes(m.charAt(0)) && /^(Working directory|Executing via SDK|Executing inline implement protocol|Inline protocol size|Recorded baseline commit|Filtered \d+|Injected|Timeout multiplier|SDK max turns reduced|BDD oracle|Extracted partial data|CancelledError caught|Generated \d+)/.test(m))
    return note('invoker-info')
  // the LLM Coach's evidence gathering (June 2026), run by the invoker: a Coach phase, not the Player
  if (m.charCodeAt(0) === 0x54 /* T */ && (r = /^(TASK-[\w-]*\w): Phase-A gather failed for (TASK-[\w-]*\w) turn (\d+)/.exec(m)))
    return {kind: 'cv-phase-error', taskId: r[2]!, turn: Number(r[3]), phase: 'gather', text: m}
  if (m.charCodeAt(0) === 0x54 /* T */ && /^TASK-[\w-]*\w: Phase-A gather produced \d+/.test(m)) return note('invoker-info')
  return null
}

function parseTaskLine(level: string, taskId: string, m: string): ParsedEvent | null {
  let r: RegExpExecArray | null
  if (m.endsWith('elapsed)') && m.includes(' in progress... (')) return note('invoker-progress')
  switch (m.charCodeAt(0)) { // as in parseAgentInvoker
    case 0x54 /* T */:
      if ((r = /^ToolUseBlock (\w+) input keys: (.*)$/s.exec(m)))
        return {kind: 'ai-tool-keys', taskId, tool: intern(r[1]!), keys: (parsePyStrList(r[2]!) ?? [r[2]!]).map(intern)}
      break
    case 0x53 /* S */:
      if ((r = /^SDK TIMEOUT: .*?(\d+)s timeout/.exec(m))) return {kind: 'ai-sdk-timeout', taskId, seconds: Number(r[1]), text: m}
      if ((r = /^SDK completed: turns=(\w+)/.exec(m))) return {kind: 'ai-sdk-turns', taskId, used: toInt(r[1]), max: null}
      break
    case 0x4d /* M */:
      if ((r = /^Max turns: (\d+)/.exec(m))) return {kind: 'ai-sdk-turns', taskId, used: null, max: Number(r[1])}
      if ((r = /^Mode: (direct|task-work) \(/.exec(m))) return {kind: 'ai-mode', taskId, mode: r[1] as 'direct' | 'task-work'}
      // attribution.ts pairs an unnamed `SDK completed: turns=N` with the summary that follows it
      if (m.startsWith('Message summary')) return {kind: 'ai-summary', taskId}
      break
    case 0x41 /* A */:
      // docs/guardkit-logic.md §9.2 _auto_detect_direct_mode (fixed appends ", ac_count=N")
      if (m.startsWith('Auto-detected direct mode (')) return {kind: 'ai-mode', taskId, mode: 'direct'}
      break
  }
  // a specialist's own tool calls (`specialist:test-orchestrator invocation ToolUseBlock Bash …`)
  if (m.startsWith('specialist:')) return note('specialist')
  if (level === 'ERROR' && /^(SDK UNEXPECTED ERROR|Error message|Last output|Messages processed)/.test(m)) return {kind: 'ai-error', taskId, text: m}
  if (TASK_INFO_FIRST.includes(m.charAt(0)) && /^(SDK timeout: |Working directory|Allowed tools|Permission mode|SDK invocation|Setting sources|Documentation level|Harness invocation|preflight_ignore_gate|Resuming SDK session|Full traceback|Skipping orchestrator)/.test(m))
    return note('invoker-task')
  return null
}
