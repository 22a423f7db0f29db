import type {QualityGates} from '../../../model/run-record.js'
import type {ParsedEvent} from '../events.js'
import {artifactOfPath, parsePyStrList, pyBool} from './text.js'
import {note} from './note.js'

/** `guardkit.orchestrator.quality_gates.coach_validator` — the Coach (docs/record-formats.md §5.4 Coach section, §5.4a). */
export function parseCoachValidator(_level: string, m: string): ParsedEvent | null {
  let r: RegExpExecArray | null
  if (m.startsWith('  ')) return parseDumpLine(m)
  if (m.charCodeAt(0) === 0x5b /* [ */) return parseTaskPrefixed(m)
  // Dispatch on the first character: each rule below is anchored, so a message only tries the
  // rules that can match its first character, in their original order.
  switch (m.charCodeAt(0)) {
    case 0x53 /* S */:
      if ((r = /^SDK coach test execution timed out after ([\d.]+)s/.exec(m))) return {kind: 'cv-test-result', passed: false, seconds: Number(r[1])}
      // the Coach's own test run broke (the harness, not the tests): June 2026
      if (/^SDK (?:coach )?test execution failed \(error_class=/.test(m)) return {kind: 'cv-phase-error', phase: 'tests', text: m}
      if ((r = /^Starting Coach validation for (TASK-[\w-]*\w) turn (\d+)/.exec(m))) return {kind: 'cv-start', taskId: r[1]!, turn: Number(r[2])}
      if (m.startsWith('Saved Coach decision to ')) {
        const a = artifactOfPath(m)
        return a ? {kind: 'cv-saved', taskId: a.taskId, turn: a.turn} : note('coach-saved')
      }
      if ((r = /^(?:SDK )?[Ii]ndependent tests (passed|failed) in ([\d.]+)s/.exec(m)))
        return {kind: 'cv-test-result', passed: r[1] === 'passed', seconds: Number(r[2])}
      // a service GuardKit started for the Coach's tests (the task's declared infrastructure, docs/guardkit-logic.md §6.4)
      if ((r = /^Starting Docker container for service: (\S+)/.exec(m))) return {kind: 'cv-service-start', service: r[1]!}
      break
    case 0x43 /* C */:
      if ((r = /^Coach approved (TASK-[\w-]*\w) turn (\d+)/.exec(m))) return {kind: 'cv-approved', taskId: r[1]!, turn: Number(r[2])}
      if ((r = /^Coach rejected (TASK-[\w-]*\w) turn (\d+): zero-test anomaly/.exec(m))) return {kind: 'cv-zero-test', taskId: r[1]!, turn: Number(r[2]), text: m}
      if ((r = /^Criteria verification (\d+)\/(\d+) - diagnostic dump:/.exec(m))) return {kind: 'cv-dump-header', met: Number(r[1]), total: Number(r[2])}
      break
    case 0x54 /* T */:
      // the repository's autobuild.coach.test_execution, as the Coach read it (docs/guardkit-logic.md §6.4)
      if ((r = /^Test execution environment: .*\bcoach_test_execution=(\w+)/.exec(m))) return {kind: 'cv-test-env', execution: r[1]!}
      break
    case 0x55 /* U */:
      if ((r = /^Using quality gate profile for task type: (\S+)/.exec(m))) return {kind: 'cv-profile', taskType: r[1]!}
      break
    case 0x51 /* Q */:
      if (m.startsWith('Quality gate evaluation complete: ')) return {kind: 'cv-gates', gates: parseGates(m)}
      if ((r = /^Quality gates failed for (TASK-[\w-]*\w): /.exec(m))) return {kind: 'cv-gates-failed', taskId: r[1]!, text: m.slice(r[0].length)}
      break
    case 0x67 /* g */:
      if ((r = /^gather_evidence: quality gates failed for (TASK-[\w-]*\w)/.exec(m))) return {kind: 'cv-gates-failed', taskId: r[1]!, text: m}
      break
    case 0x49 /* I */:
    case 0x69 /* i */: // `[Ii]ndependent tests`
      if ((r = /^Independent test verification skipped for (TASK-[\w-]*\w) \((.*)\)/.exec(m)))
        return {kind: 'cv-tests-skipped', taskId: r[1]!, reason: r[2]!}
      if ((r = /^(?:SDK )?[Ii]ndependent tests (passed|failed) in ([\d.]+)s/.exec(m)))
        return {kind: 'cv-test-result', passed: r[1] === 'passed', seconds: Number(r[2])}
      if ((r = /^Independent test verification failed for (TASK-[\w-]*\w)(?: \(classification=(\w+)(?:, confidence=([\w/]+))?\))?/.exec(m)))
        return {kind: 'cv-test-class', taskId: r[1]!, classification: r[2] ?? 'unclassified', confidence: r[3] ?? null}
      break
    case 0x4e /* N */:
      if ((r = /^No task-specific tests found for (TASK-[\w-]*\w), skipping independent verification/.exec(m)))
        return {kind: 'cv-tests-skipped', taskId: r[1]!, reason: 'no task-specific tests found'}
      break
    case 0x52 /* R */:
      if ((r = /^Running independent tests(?: via (SDK|subprocess))?(?: \([^)]*\))?: (.*)/s.exec(m)))
        return {kind: 'cv-test-run', via: r[1] === undefined ? 'shell' : r[1].toLowerCase(), command: r[2]!}
      if ((r = /^Requirements not met for (TASK-[\w-]*\w): missing /.exec(m))) {
        const raw = m.slice(r[0].length)
        return {kind: 'cv-missing', taskId: r[1]!, raw, missing: parsePyStrList(raw)}
      }
      break
    case 0x5a /* Z */:
      if (m.startsWith('Zero-test anomaly')) return {kind: 'cv-zero-test', text: m}
      break
  }
  const c = m.charAt(0)
  const named = NOTES_FIRST.includes(c) ? NOTES.find(([re]) => re.test(m)) : undefined
  if (named !== undefined) return note(named[1])
  if (COACH_INFO_FIRST.includes(c) && /^(Task-specific tests detected|No task-specific tests found|Test execution environment|Starting Docker|Stopping Docker|Set DATABASE_URL|conditional_approval|Coach conditionally approved|Synthetic report|Hybrid fallback|Agent-invocations|Seam test|Task-work results not found|task_work_results\.json not found|Found test files via|CoachValidator pinning|Coach SDK test command pinned|Matching strategy auto-resolved|Promise-based|Using promise|Text matching|Coach decision|Infrastructure|Docker|Loaded|Verifying)/.test(m))
    return note('coach-info')
  return null
}

const NOTES: readonly (readonly [RegExp, string])[] = [
  [/^Synthetic report detected/, 'synthetic-detected'],
  [/^Synthetic report has no completion_promises/, 'synthetic-no-promises'],
  [/^Hybrid fallback|^Synthetic path: applied hybrid fallback/, 'hybrid-fallback'],
  [/^Found test files via cumulative diff/, 'cumulative-diff'],
  [/^conditional_approval check/, 'conditional-approval'],
  [/^Seam test recommendation/, 'seam-recommendation'],
  // docs/guardkit-logic.md §7.3 (S004 Fix 1): the promises of an earlier turn's player report, when this turn's has none
  [/^No completion_promises in current turn — recovered from player_turn_\d+\.json/, 'prior-turn-promises'],
]
/** The first characters of the NOTES patterns and of the coach-info alternatives (only those can match). */
const NOTES_FIRST = 'SHFcN'
const COACH_INFO_FIRST = 'ACDFHILMNPSTUVct'

/** `[TASK-X] …`: parallel-wave test isolation (2026-06). */
function parseTaskPrefixed(m: string): ParsedEvent | null {
  let r: RegExpExecArray | null
  if ((r = /^\[(TASK-[\w-]*\w)\] Running isolated tests \([^)]*\): (.*)$/s.exec(m))) return {kind: 'cv-test-run', taskId: r[1]!, via: 'isolated', command: r[2]!}
  if ((r = /^\[(TASK-[\w-]*\w)\] Isolated tests (passed|failed) in ([\d.]+)s/.exec(m))) return {kind: 'cv-test-result', taskId: r[1]!, passed: r[2] === 'passed', seconds: Number(r[3])}
  if (/^\[TASK-[\w-]*\w\] (Parallel wave detected|Worktree snapshot created)/.test(m)) return note('coach-isolation')
  return null
}

function parseDumpLine(m: string): ParsedEvent | null {
  if (m.startsWith('  AC text: ')) return {kind: 'cv-dump-line', field: 'ac', value: m.slice(11)}
  const r = /^ {2}(requirements_met|completion_promises|matching_strategy|_synthetic): (.*)$/s.exec(m)
  if (r) return {kind: 'cv-dump-line', field: r[1] as 'requirements_met', value: r[2]!}
  return null
}

/** `name=value (required=flag)` for each gate, built once (not per record). */
const gate = (name: string) => new RegExp(`\\b${name}=(\\w+)(?: \\(required=(\\w+)\\))?`)
const GATE_TESTS = gate('tests')
const GATE_COVERAGE = gate('coverage')
const GATE_ARCH = gate('arch')
const GATE_AUDIT = gate('audit')

/**
 * The shape GuardKit prints, read with one match instead of five searches. It gives the same values:
 * in this shape each `name=` first occurs where the match reads it. Any other shape is searched.
 */
const GATES_USUAL = /^Quality gate evaluation complete: tests=(\w+) \(required=(\w+)\), coverage=(\w+) \(required=(\w+)\), arch=(\w+) \(required=(\w+)\), audit=(\w+) \(required=\w+\), ALL_PASSED=(\w+)/

function parseGates(m: string): QualityGates {
  const u = GATES_USUAL.exec(m)
  if (u !== null) {
    return {
      testsPassed: pyBool(u[1]),
      coverageMet: pyBool(u[3]),
      archReviewPassed: pyBool(u[5]),
      planAuditPassed: pyBool(u[7]),
      allPassed: pyBool(u[8]),
      testsRequired: pyBool(u[2]),
      coverageRequired: pyBool(u[4]),
      archReviewRequired: pyBool(u[6]),
    }
  }
  const tests = GATE_TESTS.exec(m)
  const coverage = GATE_COVERAGE.exec(m)
  const arch = GATE_ARCH.exec(m)
  const audit = GATE_AUDIT.exec(m)
  return {
    testsPassed: pyBool(tests?.[1]),
    coverageMet: pyBool(coverage?.[1]),
    archReviewPassed: pyBool(arch?.[1]),
    planAuditPassed: pyBool(audit?.[1]),
    allPassed: pyBool(/ALL_PASSED=(\w+)/.exec(m)?.[1]),
    testsRequired: pyBool(tests?.[2]),
    coverageRequired: pyBool(coverage?.[2]),
    archReviewRequired: pyBool(arch?.[2]),
  }
}
