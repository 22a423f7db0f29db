import type {ParsedEvent} from '../events.js'
import {note} from './note.js'

/** `guardkit.orchestrator.worktree_checkpoints` — the checkpoint after each turn and the pollution rule (docs/guardkit-logic.md §8.1). */
export function parseCheckpoints(_level: string, m: string): ParsedEvent | null {
  let r: RegExpExecArray | null
  if ((r = /^Creating checkpoint for (TASK-[\w-]*\w) turn (\d+) \(tests: (\w+), count: (\d+)\)/.exec(m)))
    return {kind: 'wc-creating', taskId: r[1]!, turn: Number(r[2]), testsPassed: r[3] === 'pass', count: Number(r[4])}
  if ((r = /^Created checkpoint: ([0-9a-f]+) for turn (\d+) \((\d+) total\)/.exec(m)))
    return {kind: 'wc-created', hash: r[1]!, turn: Number(r[2]), total: Number(r[3])}
  if ((r = /rolling back from turn (\d+) to turn (\d+)/.exec(m))) return {kind: 'ab-rollback', turn: Number(r[1]), toTurn: Number(r[2])}
  if ((r = /^Context pollution detected: (\d+) consecutive test failures in turns \[([\d, ]*)\]/.exec(m)))
    return {kind: 'wc-pollution', failures: Number(r[1]), turns: r[2]!.split(',').filter((s) => s !== '').map((s) => Number(s))}
  if (m.startsWith('No passing checkpoints found')) return {kind: 'wc-no-passing'}
  if (/^(Checkpoint|Loaded|Rolled back|Rollback|Saved|Initialized)/.test(m)) return note('checkpoint-info')
  return null
}

/** state_tracker / state_detection / synthetic_report / state_bridge.<TASK> / turn_state_operations. */
export function parseState(logger: string, _level: string, m: string): ParsedEvent | null {
  let r: RegExpExecArray | null
  if ((r = /^Capturing state for (TASK-[\w-]*\w) turn (\d+)/.exec(m))) return {kind: 'st-capturing', taskId: r[1]!, turn: Number(r[2])}
  if (m.startsWith('Test detection (')) return note('state-tests')
  if (logger.startsWith('guardkit.tasks.state_bridge.')) return note('state-bridge')
  if (/^(Git detection|State from detection|Loaded Player report|Saved work state|Generated \d+|\[Graphiti\]|\[TurnState\]|Inferred \d+|Building|Detect)/.test(m))
    return note('state-info')
  return null
}

const EVENT_LOOP = /different event loop|Event loop is closed|Task was destroyed but it is pending|was never retrieved|attached to a different loop/
const NO_LOOP = /no running event loop/
const CONNECTION = /[Cc]onnection (error|refused|reset)|ConnectionError|ConnectionRefused|Cannot connect|Failed to connect|Could not connect|ECONNREFUSED|timed out connecting/

/**
 * Knowledge graph (Graphiti/FalkorDB), asyncio and HTTP clients: context for findings
 * (GRAPHITI_CONNECTION_DEGRADED); warnings and errors are typed, routine INFO is noted.
 */
export function parseKnowledge(logger: string, level: string, message: string): ParsedEvent | null {
  // The first line says what failed; what follows is a query or parameter dump (tens of KB).
  const nl = message.indexOf('\n')
  const m = nl === -1 ? message : message.slice(0, nl)
  if (level === 'WARNING' || level === 'ERROR' || level === 'CRITICAL') {
    const errorKind = NO_LOOP.test(m) ? 'no-running-loop' : EVENT_LOOP.test(m) ? 'event-loop' : CONNECTION.test(m) ? 'connection' : null
    if (errorKind !== null) return {kind: 'graphiti-error', errorKind, text: m}
    if (/failed|Error|error|disabled|RecursionError/.test(m) && (logger.includes('graphiti') || logger.includes('falkordb') || logger === 'asyncio'))
      return {kind: 'graphiti-error', errorKind: 'other', text: m}
  }
  if (logger === 'httpx') return m.startsWith('HTTP Request: ') ? note('http') : null
  if (level === 'INFO') return note('knowledge-info')
  // Configuration warnings (no project_id, no API key, skipped template patterns): Graphiti runs degraded.
  return note('knowledge-warning')
}
