import type {ParsedEvent} from '../events.js'
import {parseAgentInvoker} from './agent-invoker.js'
import {parseAutobuild} from './autobuild.js'
import {parseCoachValidator} from './coach-validator.js'
import {parseCliAutobuild, parseCliDisplay, parseFeatureOrchestrator, parseProgress} from './framing.js'
import {parseCheckpoints, parseKnowledge, parseState} from './infra.js'
import {note} from './note.js'

export type Parser = (level: string, message: string) => ParsedEvent | null

const BY_LOGGER = new Map<string, Parser>([
  ['guardkit.orchestrator.agent_invoker', parseAgentInvoker],
  ['guardkit.orchestrator.autobuild', parseAutobuild],
  ['guardkit.orchestrator.quality_gates.coach_validator', parseCoachValidator],
  ['guardkit.orchestrator.progress', parseProgress],
  ['guardkit.orchestrator.feature_orchestrator', parseFeatureOrchestrator],
  ['guardkit.orchestrator.worktree_checkpoints', parseCheckpoints],
  ['guardkit.cli.autobuild', parseCliAutobuild],
  ['guardkit.cli.display', parseCliDisplay],
  ['guardkit.orchestrator.feature_loader', (_l, m) => (m.startsWith('Loading feature from ') ? note('feature-loader') : null)],
  ['claude_agent_sdk._internal.transport.subprocess_cli', (_l, m) => (m.startsWith('Using bundled Claude Code CLI') ? note('sdk-cli') : null)],
  ['claude_agent_sdk._internal.query', (l, m) => (l === 'ERROR' ? {kind: 'ai-error', text: m} : null)],
  ['guardkit.orchestrator.parallel_strategy', (_l, m) => (/^Wave \d+: max_parallel=/.test(m) ? note('parallel') : null)],
  ['guardkit.orchestrator.review_summary', (_l, m) => (m.startsWith('Review summary written') ? note('review-summary') : null)],
  ['guardkit.orchestrator.specialist_invocations', parseSpecialist],
  // the pre-loop design phase (`--enable-pre-loop`; December 2025 – January 2026 runs, later ones too)
  ['guardkit.orchestrator.quality_gates.task_work_interface', (l, m) => (l === 'ERROR' || /^(Executing|SDK completed|Working directory|Design phase|Parsed)/.test(m) ? note('design-phase') : null)],
  ['guardkit.orchestrator.quality_gates.pre_loop', (_l, m) => (/^(Executing pre-loop|Pre-loop|Design phase|Implementation plan)/.test(m) ? note('pre-loop') : null)],
  ['guardkitfactory.harness.langgraph_harness', (_l, m) => (/^TASK-[\w-]*\w: /.test(m) ? note('harness') : null)],
  ['guardkit.orchestrator.environment_bootstrap', (_l, m) => (/^(Running|Install|Incomplete|FFC|PEP|Bootstrap|Detected|Skipping|Creating)/.test(m) ? note('bootstrap') : null)],
])

/**
 * `guardkit.orchestrator.specialist_invocations` (June 2026): the specialists a turn runs
 * (`run_specialist(test-orchestrator)`, `code-reviewer`) — a hang, a failure, a capped timeout.
 */
function parseSpecialist(level: string, m: string): ParsedEvent | null {
  const task = /(TASK-[\w-]*\w)/.exec(m)?.[1]
  const at = task ? {taskId: task} : {}
  const role = /run_specialist\(([\w-]+)\)/.exec(m)?.[1] ?? /\] ([\w-]+) sdk_timeout capped/.exec(m)?.[1] ?? 'specialist'
  if (/sdk_timeout capped/.test(m)) return {kind: 'ai-specialist', role, what: 'capped', text: m, ...at}
  if (level === 'WARNING' || level === 'ERROR') return {kind: 'ai-specialist', role, what: / failed for /.test(m) ? 'failed' : 'hang', text: m, ...at}
  return /invocation/.test(m) ? note('specialist') : null
}

const STATE_LOGGERS = new Set([
  'guardkit.orchestrator.state_tracker',
  'guardkit.orchestrator.state_detection',
  'guardkit.orchestrator.synthetic_report',
  'guardkit.knowledge.turn_state_operations',
])

/**
 * A logging record's message → a typed event, or null when no grammar knows its shape (the
 * ingest counts those per logger; they are never dropped silently).
 */
export function parseRecord(level: string, logger: string, message: string): ParsedEvent | null {
  return parserFor(logger)(level, message)
}

const UNKNOWN: Parser = () => null

/** The grammar of one logger (the ingest resolves it once per logger name). */
export function parserFor(logger: string): Parser {
  const parser = BY_LOGGER.get(logger)
  if (parser !== undefined) return parser
  if (STATE_LOGGERS.has(logger) || logger.startsWith('guardkit.tasks.state_bridge.')) return (l, m) => parseState(logger, l, m)
  if (isKnowledgeLogger(logger)) return (l, m) => parseKnowledge(logger, l, m)
  return UNKNOWN
}

function isKnowledgeLogger(logger: string): boolean {
  return logger.startsWith('guardkit.knowledge.') || logger.startsWith('graphiti_core.') || logger === 'asyncio' || logger === 'httpx' ||
    logger.startsWith('openai.') || logger === 'backoff' || logger.startsWith('neo4j.') || logger.startsWith('urllib3.')
}

/** Loggers named after a task are merged for statistics (docs/record-formats.md §5.3). */
export function statLoggerName(logger: string): string {
  return logger.startsWith('guardkit.tasks.state_bridge.') ? 'guardkit.tasks.state_bridge.<TASK-ID>' : logger
}
