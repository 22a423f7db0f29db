import type {ParsedEvent} from '../events.js'
import {parseParams, parsePyStrList, splitTimestamp, toInt} from './text.js'
import {note} from './note.js'

/** `guardkit.cli.autobuild` — the start of every attempt (docs/record-formats.md §5.1.7). */
export function parseCliAutobuild(level: string, m: string): ParsedEvent | null {
  let r: RegExpExecArray | null
  if ((r = /^Starting feature orchestration: (FEAT-[\w-]*\w)(?: \((.*)\))?/s.exec(m)))
    return {kind: 'cli-start', mode: 'feature', featureId: r[1]!, params: parseParams(r[2] ?? '')}
  if ((r = /^Starting orchestration for (TASK-[\w-]*\w)(?: \((.*)\))?/s.exec(m)))
    return {kind: 'cli-start', mode: 'task', featureId: null, taskId: r[1]!, params: parseParams(r[2] ?? '')}
  if (m.startsWith('Feature orchestration error: ') || m.startsWith('Orchestration error')) return {kind: 'cli-error', message: m}
  if (/^(Loading task|Development mode|SDK timeout|Skip architectural review|Timeout multiplier|Initializing orchestrator|Base branch|Loaded task|Using|Max turns|Resum)/.test(m))
    return note('cli-setting')
  return level === 'ERROR' ? {kind: 'cli-error', message: m} : null
}

/** `guardkit.orchestrator.feature_orchestrator` — waves, the per-task wall clock, the feature outcome. */
export function parseFeatureOrchestrator(_level: string, m: string): ParsedEvent | null {
  let r: RegExpExecArray | null
  // Dispatch on the first character: each rule in the switch is anchored, so a message only tries
  // the rules that can match its first character, in their original order.
  switch (m.charCodeAt(0)) {
    case 0x54 /* T */:
      if ((r = /^Task (TASK-[\w-]*\w) timed out after (\d+)s/.exec(m))) return {kind: 'feature-task-timeout', taskId: r[1]!, seconds: Number(r[2])}
      if (/^Task TASK-[\w-]*\w: /.test(m)) return note('feature-task')
      break
    case 0x46 /* F */:
      if (m.startsWith('FeatureOrchestrator initialized: ')) return {kind: 'feature-init', params: parseParams(m.slice(33))}
      if ((r = /^Feature orchestration complete: (FEAT-[\w-]*\w), status=(\w+), completed=(\S+)/.exec(m)))
        return {kind: 'feature-complete', featureId: r[1]!, status: r[2]!, completed: r[3]!}
      if (m.startsWith('Feature orchestration failed: ')) return {kind: 'feature-failed', message: m.slice(30)}
      break
    case 0x50 /* P */:
      if ((r = /^Phase 2 \(Waves\): Executing (\d+) waves?(?: \(task_timeout=(\d+)s\))?/.exec(m)))
        return {kind: 'waves-start', waves: Number(r[1]), taskTimeout: toInt(r[2])}
      break
  }
  if (/health check failed|pre-flight .*failed|Graphiti unavailable/i.test(m)) return {kind: 'graphiti-error', errorKind: 'connection', text: m}
  const c = m.charAt(0) // the first characters of the alternatives of each note pattern
  if ('[SCPF'.includes(c) && /^(\[TASK-[\w-]*\w\] Per-task task_timeout|Starting parallel gather|Coach pytest interpreter|Pre-initialized Graphiti|FalkorDB pre-flight)/.test(m))
    return note('feature-info')
  if ('BCEFGLPRSTUW'.includes(c) && /^(Raised file descriptor|Starting feature orchestration|Phase \d|Copied|Graphiti|Loading|Loaded|Created|Using|Resum|Skipp|Wave|Stopping|Feature|Bootstrap|Environment|Worktree|Cleaning|Task)/.test(m))
    return note('feature-info')
  return null
}

/** `guardkit.cli.display` — wave display. */
export function parseCliDisplay(_level: string, message: string): ParsedEvent | null {
  const {ts, rest: m} = splitTimestamp(message)
  const at = ts === undefined ? {} : {ts}
  let r: RegExpExecArray | null
  if ((r = /^Started wave (\d+): (\[.*\])/.exec(m))) return {kind: 'wave-start', wave: Number(r[1]), taskIds: parsePyStrList(r[2]!) ?? [], ...at}
  if ((r = /^Wave (\d+) complete: passed=(\d+), failed=(\d+)/.exec(m)))
    return {kind: 'wave-done', wave: Number(r[1]), passed: Number(r[2]), failed: Number(r[3]), ...at}
  if (/^(WaveProgressDisplay initialized|Final summary rendered|Task|Wave)/.test(m)) return note('display-info')
  return null
}

/** `guardkit.orchestrator.progress` — the per-turn progress display; no task id (attribute by context). */
export function parseProgress(_level: string, message: string): ParsedEvent | null {
  const {ts, rest: m} = splitTimestamp(message)
  const at = ts === undefined ? {} : {ts}
  let r: RegExpExecArray | null
  if ((r = /^Started turn (\d+): (Player Implementation|Coach Validation)/.exec(m)))
    return {kind: 'pr-started', turn: Number(r[1]), phase: r[2] === 'Coach Validation' ? 'coach' : 'player', ...at}
  if ((r = /^Completed turn (\d+): (success|feedback|error) - /.exec(m)))
    return {kind: 'pr-completed', turn: Number(r[1]), status: r[2] as 'success', summary: m.slice(r[0].length), ...at}
  if ((r = /^Summary rendered: (\w+) after (\d+) turns/.exec(m))) return {kind: 'pr-summary', decision: r[1]!, turns: Number(r[2]), ...at}
  if (/^(complete_turn called without active turn|ProgressDisplay initialized|start_turn)/.test(m)) return note('progress-info')
  return null
}
