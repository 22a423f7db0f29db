import fc from 'fast-check'
import {feedbackText} from './feedback.js'
import {failedLine, nodeId, summaryLine, traceback} from './pytest.js'
import {anyJsString, hardText} from './text.js'

/**
 * Lines of a captured `guardkit autobuild` console (corpus docs/record-formats.md): `LEVEL:logger:message`
 * records, Rich boxes and tables, spinners redrawn with CR and ANSI escapes, shell prompts, pytest
 * output. `realLines` are lines of real-shaped logs (the fixtures) that the caller reads from disk.
 */

export const LOGGERS = [
  'guardkit.cli.autobuild',
  'guardkit.orchestrator.autobuild',
  'guardkit.orchestrator.agent_invoker',
  'guardkit.orchestrator.quality_gates.coach_validator',
  'guardkit.orchestrator.feature_orchestrator',
  'guardkit.orchestrator.progress',
  'guardkit.orchestrator.worktree_checkpoints',
  'guardkit.tasks.task_loader',
  'httpx',
  'x.y',
] as const

const level = fc.constantFrom('DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL')
const taskId = fc.constantFrom('TASK-DB-003', 'TASK-X-001', 'TASK-SFT-001', 'TASK-\u{1F600}')

/** Messages shaped like the ones the grammar knows, with variable parts drawn. */
const knownMessage = fc.oneof(
  taskId.map((t) => `Starting orchestration for ${t}`),
  fc.tuple(taskId, fc.nat({max: 30})).map(([t, n]) => `[${t}] Executing turn ${n}`),
  fc.tuple(fc.nat({max: 30}), fc.nat({max: 8}), fc.nat({max: 8}), fc.nat({max: 100})).map(([turn, a, b, p]) => `Criteria Progress (Turn ${turn}): ${a}/${b} verified (${p}%)`),
  fc.tuple(fc.stringMatching(/^[0-9a-f]{8}$/), fc.nat({max: 30})).map(([h, n]) => `Feedback stall: identical feedback (sig=${h}) for 3 turns with ${n} criteria passing`),
  fc.tuple(fc.stringMatching(/^[0-9a-f]{8}$/), fc.nat({max: 30})).map(([h, n]) => `Checkpoint created: ${h} for turn ${n}`),
  fc.tuple(taskId, fc.nat({max: 30}), fc.constantFrom('approved', 'max_turns_exceeded', 'unrecoverable_stall', 'cancelled')).map(([t, n, d]) => `Orchestration complete: ${t}, decision=${d}, turns=${n}`),
  nodeId.map((id) => `Running: pytest ${id} -v --tb=short`),
  feedbackText.map((f) => `Feedback: ${f}`),
)

export const recordLine = fc.tuple(level, fc.constantFrom(...LOGGERS), fc.oneof(knownMessage, hardText({maxLength: 40}))).map(([l, g, m]) => `${l}:${g}:${m}`)

/** Rich chrome, spinners, prompts: console lines that are not records. */
export const consoleLine = fc.oneof(
  fc.constantFrom(
    '╭────────── GuardKit AutoBuild ──────────╮',
    '│ AutoBuild Feature Orchestration        │',
    '╰────────────────────────────────────────╯',
    '│ 1 │ Coach Validation │ ✓ success │ x │',
    '  AutoBuild Summary (APPROVED)',
    '  AutoBuild Summary (MAX_TURNS_EXCEEDED)',
    'dev@mac fastapi % guardkit autobuild task TASK-X-001',
    '$ guardkit autobuild feature FEAT-BA28 --max-turns 30',
    '✓ Feature validation passed',
    '⠋ [2026-01-27T10:00:00] Player Implementation ━━━━━━━━━   0%',
    '\x1b[2K\x1b[1A\x1b[2K',
    '\r',
    '',
    'Traceback (most recent call last):',
  ),
  fc.tuple(fc.constantFrom('⠋', '⠙', '⠹', '⠸'), fc.nat({max: 100}), fc.string({maxLength: 20})).map(([s, p, rest]) => `${s} Turn 1 ━━━━━━━━━ ${p}%${rest}`),
  fc.array(fc.constantFrom('⠋ working\r', '\x1b[2K', '\x1b[1A', 'INFO:guardkit.orchestrator.progress:tick'), {minLength: 1, maxLength: 4}).map((xs) => xs.join('')),
)

/** One physical line: mostly real or well-formed shapes, some damaged, some arbitrary. */
export function logLine(realLines: readonly string[]): fc.Arbitrary<string> {
  const real = realLines.length > 0 ? fc.constantFrom(...realLines) : fc.constant('')
  return fc.oneof(
    {weight: 4, arbitrary: real},
    {weight: 3, arbitrary: recordLine},
    {weight: 2, arbitrary: consoleLine},
    {weight: 1, arbitrary: fc.oneof(summaryLine, failedLine, traceback)},
    // a real line cut anywhere, or with arbitrary text glued on (spinner residue, interleaved writes)
    {weight: 1, arbitrary: fc.tuple(real, fc.nat(), anyJsString).map(([l, at, junk]) => l.slice(0, at % (l.length + 1)) + junk)},
    {weight: 1, arbitrary: anyJsString},
  )
}
