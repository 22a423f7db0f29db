import {isTestFileName} from '../../logic/coach/test-paths.js'
import {isAbsolutePath, normalizePath} from '../../logic/python/pathlib.js'
import type {Evidence} from '../../model/evidence.js'
import {draft, fixedBy, formatTurns, type FamilyInput, type FindingDraft} from '../draft.js'
import {flagsOfProfile} from '../recorded-stall.js'
import {modelledReplay} from '../replay-view.js'
import {artifactEvidence, asObject, playerReport, stringList, taskWorkResultsByTurn} from '../record-facts.js'

/**
 * One test file under two spellings. ABSOLUTE_RELATIVE_DUPLICATES: `/…/worktree/tests/x.py` and
 * `tests/x.py` (both in one pytest command in fixtures/runs/db-003-timeout; fixed by relPathDedup, D20);
 * DUPLICATE_TEST_PATHS_UNNORMALISED: two relative spellings of one path (`./tests/x.py`, `tests/x.py`,
 * `tests//x.py`), which no version normalises.
 */
export function detectTestPathFindings(input: FamilyInput): FindingDraft[] {
  const absRel: {turn: number; pairs: [string, string][]; where: string; evidence: Evidence[]}[] = []
  const spelled: {turn: number; pairs: [string, string][]; evidence: Evidence[]}[] = []
  const twrByTurn = taskWorkResultsByTurn(input.task)
  const dedupes = flagsOfProfile(input.asRun).relPathDedup
  for (const t of input.task.turns) {
    const cmd = t.coach.testCommand
    if (cmd) {
      const files = testArgs(cmd.value)
      const ar = absRelPairs(files)
      if (ar.length) absRel.push({turn: t.turn, pairs: ar, where: 'the pytest command', evidence: [...cmd.evidence]})
      const sp = spellingPairs(files)
      if (sp.length) spelled.push({turn: t.turn, pairs: sp, evidence: [...cmd.evidence]})
      if (ar.length) continue
    }
    // relPathDedup (D20): from 5c2b5d82 the Coach dedupes test paths itself; the lists matter only before.
    if (dedupes) continue
    const {final} = playerReport(t)
    const twr = twrByTurn.get(t.turn)
    for (const v of [final, twr]) {
      const json = asObject(v?.json)
      if (!v || !json) continue
      const files = [...stringList(json['files_created']), ...stringList(json['files_modified'])].filter(isTestFileName)
      const ar = absRelPairs(files)
      if (ar.length) {
        absRel.push({turn: t.turn, pairs: ar, where: v.file.split('/').pop()!, evidence: [artifactEvidence(v, '/files_created'), artifactEvidence(v, '/files_modified')]})
        break
      }
    }
  }
  const out: FindingDraft[] = []
  if (absRel.length) {
    const inCommand = absRel.filter((a) => a.where === 'the pytest command')
    const turns = absRel.map((a) => a.turn)
    const example = absRel[0]!.pairs[0]!
    out.push(
      draft(input, {
        code: 'ABSOLUTE_RELATIVE_DUPLICATES',
        severity: inCommand.length ? 'medium' : 'low',
        turns,
        message: inCommand.length
          ? `The same test file was passed to pytest twice, as an absolute and a relative path, on ${formatTurns(inCommand.map((a) => a.turn))} (${example[1]}): the Coach's test detection compared the strings, not the files.`
          : `The file lists of ${formatTurns(turns)} name the same test file twice, as an absolute and a relative path (${example[1]}); this GuardKit passes both to pytest when it detects tests from these lists.`,
        evidence: absRel.flatMap((a) => a.evidence),
        remediation: 'Harmless to the verdict on its own; GuardKit 5c2b5d82+ normalises test paths to worktree-relative before deduplicating. Read doubled test counts in the Coach\'s output with this in mind.',
        fixedIn: fixedBy('relPathDedup'),
        source: {function: 'CoachValidator._detect_tests_from_results', spec: '§6.5'},
        detail: {turns: absRel.map((a) => ({turn: a.turn, where: a.where, pairs: a.pairs}))},
      }),
    )
  }
  const replayed = spelled.length === 0 ? replayedSpellings(input) : null
  if (replayed) out.push(replayed)
  if (spelled.length) {
    const turns = spelled.map((s) => s.turn)
    const [a, b] = spelled[0]!.pairs[0]!
    out.push(
      draft(input, {
        code: 'DUPLICATE_TEST_PATHS_UNNORMALISED',
        severity: 'low',
        turns,
        message: `The pytest command of ${formatTurns(turns)} names one test file under two spellings ("${a}" and "${b}"); neither legacy nor fixed GuardKit normalises relative paths before deduplicating.`,
        evidence: spelled.flatMap((s) => s.evidence),
        remediation: 'Have the Player report paths in one form (worktree-relative, no "./"); the duplicate only confuses test counts in the Coach\'s output.',
        fixedIn: null,
        source: {function: 'CoachValidator._detect_tests_from_results / _normalize_to_relative', spec: '§6.5'},
        detail: {turns: spelled.map((s) => ({turn: s.turn, pairs: s.pairs}))},
      }),
    )
  }
  return out
}

/** DUPLICATE_TEST_PATHS_UNNORMALISED from the test command fixed would run (inferred: a replay). */
function replayedSpellings(input: FamilyInput): FindingDraft | null {
  const replay = modelledReplay(input.replays, 'fixed')
  if (!replay) return null
  const hits = replay.turns.flatMap((t) => {
    const cmd = t.detail.coach.testCommand
    const pairs = cmd ? spellingPairs(testArgs(cmd)) : []
    return pairs.length ? [{turn: t.turn, pairs, command: cmd!}] : []
  })
  if (hits.length === 0) return null
  const [a, b] = hits[0]!.pairs[0]!
  return draft(input, {
    code: 'DUPLICATE_TEST_PATHS_UNNORMALISED',
    severity: 'low',
    turns: hits.map((h) => h.turn),
    reproduceProfile: 'fixed',
    message: `Fixed GuardKit would pass one test file to pytest under two spellings ("${a}" and "${b}") on ${formatTurns(hits.map((h) => h.turn))}: _normalize_to_relative rewrites absolute paths only.`,
    evidence: [],
    remediation: 'Have the Player report paths in one form (worktree-relative, no "./").',
    fixedIn: null,
    source: {function: 'CoachValidator._detect_tests_from_results / _normalize_to_relative', spec: '§6.5'},
    deduction: `the replay under fixed detects the command "${hits[0]!.command}" from the recorded file lists`,
    detail: {turns: hits},
  })
}

/** The test-file arguments of a pytest command line (node ids reduced to their file). */
export function testArgs(command: string): string[] {
  return command
    .split(/\s+/)
    .filter((tok) => tok !== '' && !tok.startsWith('-'))
    .map((tok) => tok.split('::')[0]!)
    .filter((tok) => tok.endsWith('.py'))
}

/** (absolute, relative) pairs naming one file: the absolute path ends with the relative one. */
export function absRelPairs(paths: readonly string[]): [string, string][] {
  const abs = [...new Set(paths.filter((p) => isAbsolutePath(p)))]
  const rel = [...new Set(paths.filter((p) => !isAbsolutePath(p)))]
  const out: [string, string][] = []
  for (const r of rel) {
    const norm = normalizePath(r)
    if (norm === '.' || norm.startsWith('..')) continue
    const a = abs.find((x) => normalizePath(x).endsWith(`/${norm}`))
    if (a) out.push([a, r])
  }
  return out
}

/** Pairs of relative strings that differ but name the same path (pathlib drops `.` and empty parts). */
export function spellingPairs(paths: readonly string[]): [string, string][] {
  const seen = new Map<string, string>()
  const out: [string, string][] = []
  for (const p of paths) {
    if (isAbsolutePath(p)) continue
    const norm = normalizePath(p)
    const first = seen.get(norm)
    if (first === undefined) seen.set(norm, p)
    else if (first !== p && !out.some(([x, y]) => (x === first && y === p) || (x === p && y === first))) out.push([first, p])
  }
  return out
}
