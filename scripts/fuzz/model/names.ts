import fc from 'fast-check'
import {FIXTURE_TASK_IDS} from './sources.js'

/**
 * File and folder names: the ones GuardKit writes, and the ones users and terminals produce — spaces,
 * colons, unicode (NFC and NFD, astral, right-to-left), leading dashes, trailing dots and spaces,
 * control characters, names at the 255-byte limit. Never `/`, NUL, `.` or `..` (they are not names).
 */

/** Makes a generated name usable as one path segment. */
export function asSegment(name: string): string {
  const cleaned = name.replace(/[/\0]/g, '_')
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return `_${cleaned}_`
  // ext4 allows 255 bytes per name
  let out = cleaned
  while (Buffer.byteLength(out) > 255) out = Array.from(out).slice(0, -1).join('')
  return out
}

const HOSTILE_PARTS = [
  ' ', '  ', ':', '::', '-', '--', '😀', '🧪', 'é', 'e\u0301', 'ß', 'İ', 'ﬁ', '中文', 'ログ', 'עברית', '\u202e', '\u200b', '\ufeff',
  '\t', '\n', '\r', '\x1b[31m', '\\', '"', "'", '$HOME', '`id`', '*', '?', '[a]', '{x}', '%s', '#', '!', '&', ';', '|', '<>', '~',
  '..', '.', 'CON', 'nul', '\u0085', '\u2028', '\udc00',
  // names that try to drive the terminal or the CI log (docs/security.md)
  '\n::warning title=INJ::x', '::add-mask::', '##[error]', '##vso[task.complete]', '\x1b]0;pwned\x07', '\x1b[2J\x1b[H', '\x07', '\x1bc',
]

const hostilePart = fc.constantFrom(...HOSTILE_PARTS)

/** A name: `base` kept, or with hostile characters around or inside it. */
export function hostileName(base: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .oneof(
      {withCrossShrink: true},
      {weight: 6, arbitrary: base},
      {weight: 1, arbitrary: fc.tuple(hostilePart, base).map(([p, b]) => p + b)},
      {weight: 1, arbitrary: fc.tuple(base, hostilePart).map(([b, p]) => b + p)},
      {weight: 2, arbitrary: fc.tuple(base, fc.nat(), hostilePart).map(([b, at, p]) => b.slice(0, at % (b.length + 1)) + p + b.slice(at % (b.length + 1)))},
      {weight: 1, arbitrary: fc.tuple(fc.constantFrom('-', '--', '-v ', '--json ', '-- '), base).map(([p, b]) => p + b)},
      {weight: 1, arbitrary: base.map((b) => b.normalize('NFD') + '\u0301')},
      {weight: 1, arbitrary: fc.tuple(base, fc.integer({min: 150, max: 260})).map(([b, n]) => 'x'.repeat(n) + b)},
      {weight: 1, arbitrary: fc.string({unit: 'grapheme', minLength: 1, maxLength: 12})},
    )
    .map(asSegment)
}

/** RUN's own folder name. */
export const runName = hostileName(fc.constantFrom('run', 'FEAT-BA28', 'runs 2026-06-08', 'my run: copy', 'ラン', '-run', 'run.log', 'analyze', '😀 run'))

const realTaskId = FIXTURE_TASK_IDS.length > 0 ? fc.constantFrom(...FIXTURE_TASK_IDS) : fc.constant('TASK-X-001')
/** Task ids: real ones (joining a fixture's tasks), made-up ones, odd ones. */
export const taskId = fc.oneof(
  {weight: 4, arbitrary: realTaskId},
  {weight: 2, arbitrary: fc.constantFrom('TASK-X-001', 'TASK-DB-003', 'TASK-A-1', 'TASK-')},
  {weight: 2, arbitrary: hostileName(fc.constantFrom('TASK-X-001', 'TASK-Ü-001', 'TASK-😀-1', 'TASK-x y', 'TASK-a:b')).map((n) => (n.startsWith('TASK-') ? n : `TASK-${n}`))},
  {weight: 1, arbitrary: fc.constantFrom('task-x-001', 'TASK_X_001', 'TASK-X-001.json', 'TASK-' + 'A'.repeat(200))},
)

/** Names GuardKit gives artifacts in `.guardkit/autobuild/TASK-X/`, with turn numbers, and odd variants. */
export const artifactName = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(
      fc.constantFrom('player_turn', 'coach_turn', 'coach_feedback_for_turn', 'turn_state_turn', 'work_state_turn', 'coach_evidence_turn'),
      fc.oneof({weight: 5, arbitrary: fc.integer({min: 1, max: 6})}, {weight: 1, arbitrary: fc.constantFrom(0, 30, 999999, 2 ** 53, -1)}),
    ).map(([k, n]) => `${k}_${n}.json`),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom('task_work_results.json', 'checkpoints.json', 'turn_context.json', 'specialist_results.json', 'state_transitions.json', 'phase_4_summary.json', 'phase_4_checkpoint.json'),
  },
  {
    weight: 2,
    arbitrary: hostileName(fc.constantFrom('player_turn_1.json', 'coach_turn_2.json', 'task_work_results.json')).map(asSegment),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('player_turn_١.json', 'player_turn_1.json.tmp', 'player_turn_1.JSON', 'player_turn_01.json', 'verdict_turn_1.json', '.player_turn_1.json.swp', 'player_turn_1', 'player_turn_1.json~', 'player_turn_99999999999999999999999.json'),
  },
)

/** Log file names, with the extensions discovery looks at and some it does not. */
export const logName = fc.oneof(
  {weight: 4, arbitrary: fc.constantFrom('run.log', 'autobuild.log', 'FEAT-BA28.log', 'notes.md', 'capture.txt')},
  {weight: 3, arbitrary: hostileName(fc.constantFrom('run.log', 'my run.log', 'run:1.log', 'ログ.log', 'build output.txt', 'session.md'))},
  {weight: 1, arbitrary: fc.constantFrom('run.LOG', 'run.log.gz', 'run.log ', '.run.log', 'run', 'run.log.1', 'Run.Md')},
)

export const taskFileName = fc.oneof(
  {weight: 3, arbitrary: taskId.map((id) => asSegment(`${id}-some-task.md`))},
  {weight: 1, arbitrary: taskId.map((id) => asSegment(`${id}.md`))},
  {weight: 1, arbitrary: hostileName(fc.constantFrom('TASK-X-001 copy.md', 'TASK-X-001:draft.md', 'README.md', 'task-x-001.md', 'TASK-X-001.MD'))},
)

export const taskState = fc.constantFrom('backlog', 'design_approved', 'in_progress', 'in_review', 'completed', 'blocked', 'archive/2026', 'a/b/c/d/e/f/g')

export const featureName = fc.oneof(
  {weight: 3, arbitrary: fc.constantFrom('FEAT-BA28.yaml', 'FEAT-X.yml', 'FEAT-7B2D.yaml')},
  {weight: 1, arbitrary: hostileName(fc.constantFrom('FEAT-Ü.yaml', 'FEAT- spaced.yaml', 'FEAT-a:b.yaml', 'feat-x.yaml', 'FEAT-.yaml'))},
)

/** Folders where stray files end up: RUN itself, sub-folders, deep, hidden, skipped ones. */
export const strayDir = fc.oneof(
  {weight: 4, arbitrary: fc.constant('')},
  {weight: 2, arbitrary: fc.constantFrom('logs', 'logs/2026-06-08', 'captures/old', 'a/b', 'a/b/c', 'a/b/c/d/e', '.hidden', 'node_modules/x', '__pycache__', 'venv', 'versions', 'tasks')},
  {weight: 2, arbitrary: hostileName(fc.constantFrom('logs', 'my logs', 'logs:old', 'ログ', '-logs')).map((n) => n)},
)

/** A worktree's place in RUN: RUN itself, a copy below it, or a repository root's nested worktree. */
export const worktreeRoot = fc.oneof(
  {weight: 5, arbitrary: fc.constant('')},
  {weight: 1, arbitrary: fc.constantFrom('.guardkit/worktrees/FEAT-BA28/', 'copy/', 'a/b/', 'a/b/c/d/')},
  {weight: 1, arbitrary: hostileName(fc.constantFrom('worktree copy', 'wt:1', 'ワーク', '-wt')).map((n) => `${n}/`)},
)
