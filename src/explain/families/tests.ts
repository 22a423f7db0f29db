import {classifyTestFailure} from '../../logic/coach/classify-test-failure.js'
import type {Evidence} from '../../model/evidence.js'
import type {TurnRecord} from '../../model/run-record.js'
import {draft, fixedBy, formatTurns, type FamilyInput, type FindingDraft} from '../draft.js'
import {flagsOfProfile} from '../recorded-stall.js'
import {asObject, feedbackByTurn, feedbackCategory, type FeedbackView} from '../record-facts.js'
import {detectTestPathFindings} from './test-paths.js'

/**
 * A Coach test run that fails faster than this did not execute tests: the db-003 incident's runs failed on
 * their environment (`OperationalError`) in 0.7–3.1 s (fixtures/runs/db-003-timeout/README.md,
 * docs/findings.md INFRA_TEST_FAILURE).
 */
export const FAST_FAILURE_SECONDS = 5

/**
 * The Coach's quality gates and independent tests (docs/guardkit-logic.md §6.1-§6.8): gate short-circuits, failures
 * of the test environment rather than the code, feedback without the error, zero-test rejections,
 * duplicated test paths. Log and artifact records only.
 */
export function detectTestFindings(input: FamilyInput): FindingDraft[] {
  const feedback = feedbackByTurn(input.task)
  const infra = infraTurns(input, feedback)
  return [
    ...gatesShortCircuit(input, feedback),
    ...infraTestFailure(input, infra),
    ...envParityGap(input, infra),
    ...feedbackNotActionable(input, feedback),
    ...zeroTestAnomaly(input),
    ...detectTestPathFindings(input),
  ]
}

function gatesShortCircuit(input: FamilyInput, feedback: Map<number, FeedbackView>): FindingDraft[] {
  const hits: {turn: number; failed: string[]; evidence: Evidence[]}[] = []
  for (const t of input.task.turns) {
    const gates = t.coach.gates?.value
    const event = input.task.events.find((e) => e.kind === 'other' && e.name === 'quality-gates-failed' && e.turn === t.turn)
    if (gates?.allPassed !== false && !event) continue
    const failed = gates
      ? [
          gates.testsPassed === false && gates.testsRequired !== false ? 'tests' : null,
          gates.coverageMet === false && gates.coverageRequired !== false ? 'coverage' : null,
          gates.archReviewPassed === false && gates.archReviewRequired !== false ? 'architecture review' : null,
          gates.planAuditPassed === false ? 'plan audit' : null,
        ].filter((x): x is string => x !== null)
      : []
    hits.push({turn: t.turn, failed, evidence: [...(t.coach.gates?.evidence ?? []), ...(event?.evidence ?? []), ...(feedback.get(t.turn)?.evidence ?? [])]})
  }
  if (hits.length === 0) return []
  const which = [...new Set(hits.flatMap((h) => h.failed))]
  return [
    draft(input, {
      code: 'GATES_SHORT_CIRCUIT',
      severity: 'low',
      turns: hits.map((h) => h.turn),
      message: `On ${formatTurns(hits.map((h) => h.turn))} the quality gates failed${which.length ? ` (${which.join(', ')})` : ''}, so the Coach returned before running its own tests and before checking any criterion: those turns say nothing about the criteria.`,
      evidence: hits.flatMap((h) => h.evidence),
      remediation: `Make the Player's task-work results pass the ${which.length ? which.join(' and ') : 'failing'} gate (see the profile's thresholds); the criteria are only checked once every gate passes.`,
      fixedIn: null,
      source: {function: 'CoachValidator.validate / verify_quality_gates / _feedback_from_gates', spec: '§6.1, §6.3'},
      detail: {turns: hits.map((h) => ({turn: h.turn, failed: h.failed}))},
    }),
  ]
}

interface InfraTurn {
  readonly turn: TurnRecord
  readonly certain: boolean
  /** The pattern or classification that says infrastructure, or the duration that suggests it. */
  readonly why: string
  readonly seconds: number | null
  readonly evidence: readonly Evidence[]
}

/** Turns whose independent test run failed for an environment reason. */
function infraTurns(input: FamilyInput, feedback: Map<number, FeedbackView>): InfraTurn[] {
  const fixed = flagsOfProfile('fixed')
  const out: InfraTurn[] = []
  for (const t of input.task.turns) {
    const it = t.coach.independentTests
    if (!it || it.value.passed || it.value.skipped) continue
    const seconds = it.value.durationSeconds
    const cls = t.coach.testFailureClass?.value
    const texts = [feedback.get(t.turn)?.text ?? null, testOutputOf(t)].filter((x): x is string => x !== null)
    const text = texts.join('\n')
    const evidence = [...it.evidence, ...(t.coach.testFailureClass?.evidence ?? []), ...(feedback.get(t.turn)?.evidence ?? [])]
    if (cls?.classification === 'infrastructure') {
      out.push({turn: t, certain: true, why: `classified infrastructure${cls.confidence ? ` (${cls.confidence} confidence)` : ''}`, seconds, evidence})
      continue
    }
    const byText = text ? classifyTestFailure(text, null, fixed) : null
    if (byText?.failureClass === 'infrastructure') {
      out.push({turn: t, certain: true, why: infraPattern(text), seconds, evidence})
      continue
    }
    const fullText = feedback.get(t.turn)?.completeness === 'full' || testOutputOf(t) !== null
    if (fullText || cls?.classification === 'code') continue
    if (seconds !== null && seconds <= FAST_FAILURE_SECONDS) out.push({turn: t, certain: false, why: `failed in ${seconds} s`, seconds, evidence})
  }
  return out
}

const INFRA_WORDS = ['OperationalError', 'ConnectionRefusedError', 'Connection refused', 'could not connect to server', 'ConnectionError', 'ModuleNotFoundError', 'No module named', 'ImportError', 'psycopg2', 'asyncpg']

function infraPattern(text: string): string {
  return INFRA_WORDS.find((w) => text.toLowerCase().includes(w.toLowerCase())) ?? 'an infrastructure error'
}

/** The test output the Coach recorded in coach_turn_N.json, when there is one. */
function testOutputOf(t: TurnRecord): string | null {
  const report = asObject(t.artifacts.coachReport?.json)
  const it = asObject(asObject(report?.['validation_results'])?.['independent_tests'])
  const raw = it?.['raw_output'] ?? it?.['test_output_summary']
  return typeof raw === 'string' && raw !== '' ? raw : null
}

function infraTestFailure(input: FamilyInput, infra: readonly InfraTurn[]): FindingDraft[] {
  const certain = infra.filter((i) => i.certain)
  const chosen = certain.length > 0 ? certain : infra
  if (chosen.length === 0) return []
  const turns = chosen.map((i) => i.turn.turn)
  const secs = chosen.map((i) => i.seconds).filter((s): s is number => s !== null)
  const range = secs.length ? ` in ${Math.min(...secs)}${Math.max(...secs) !== Math.min(...secs) ? `–${Math.max(...secs)}` : ''} s` : ''
  const why = [...new Set(chosen.map((i) => i.why))]
  const sdk = flagsOfProfile(input.asRun).sdkTests || input.run.eraMarkers.some((m) => m.id === 'independent-tests-via-sdk')
  // what the run itself shows was in effect is never advised again: say that it did not fix it
  const viaSdk = (input.task.signals ?? []).find((s) => /Running independent tests via SDK/.test(s.text) && (s.turn === null || turns.includes(s.turn)))
  return [
    draft(input, {
      code: 'INFRA_TEST_FAILURE',
      severity: 'critical',
      turns,
      message: certain.length > 0
        ? `The Coach's own test run failed for an infrastructure reason on ${formatTurns(turns)}${range} (${why.slice(0, 2).join('; ')}): the environment, not the code, failed the tests, and no code change by the Player could fix it.`
        : `The Coach's own test run failed${range} on ${formatTurns(turns)}: a time that says an import or connection failure, not test execution, so the Player's code was probably never exercised.`,
      evidence: chosen.flatMap((i) => i.evidence).slice(0, 12),
      remediation: viaSdk !== undefined
        ? `The Coach's tests already ran through the SDK, in the Player's environment (${viaSdk.evidence.file}:${viaSdk.evidence.line ?? '?'}), and that did not fix it: install the project's dependencies into the interpreter the Coach's pytest resolves to (a ModuleNotFoundError means they are missing there), and start or mock the services the tests need.`
        : 'Mock the database (and other services) in conftest.py or use SQLite for tests; or run the Coach\'s tests in the Player\'s environment: autobuild.coach.test_execution: sdk in .guardkit/config.yaml (GuardKit 5c2b5d82+).',
      fixedIn: sdk ? null : fixedBy('sdkTests', 'classifyFailure'),
      source: {function: 'CoachValidator.run_independent_tests / _classify_test_failure', spec: '§6.4, §6.7'},
      ...(certain.length > 0
        ? {}
        : {deduction: `the test output is not recorded; every failure took at most ${FAST_FAILURE_SECONDS} s (${secs.join(', ')} s), which is the time pytest needs to fail on an import or a refused connection, not to run a test suite`}),
      detail: {turns: chosen.map((i) => ({turn: i.turn.turn, seconds: i.seconds, why: i.why, certain: i.certain}))},
    }),
  ]
}

/** ENV_PARITY_GAP (inferred): the Player's results said the tests passed; the Coach's bare run failed fast on infrastructure. */
function envParityGap(input: FamilyInput, infra: readonly InfraTurn[]): FindingDraft[] {
  const sdk = flagsOfProfile(input.asRun).sdkTests || input.run.eraMarkers.some((m) => m.id === 'independent-tests-via-sdk')
  // the run's own record of how the Coach ran its tests outranks what its era could do
  const ran = (turn: number) => testRunVia(input, turn) ?? (sdk ? 'sdk' : 'subprocess')
  if (infra.every((i) => ran(i.turn.turn) === 'sdk')) return []
  // "0 tests (passing)" is not "the Player's tests passed": a turn whose Player reported no passing test says nothing about parity
  const hits = infra.filter((i) => ran(i.turn.turn) === 'subprocess' && i.turn.coach.gates?.value.testsPassed === true && (i.seconds === null || i.seconds <= FAST_FAILURE_SECONDS) && i.turn.player.testsReported?.value.count !== 0 && i.turn.player.testsReported?.value.passing !== false)
  if (hits.length === 0) return []
  const turns = hits.map((h) => h.turn.turn)
  const counted = hits.every((h) => (h.turn.player.testsReported?.value.count ?? 0) > 0 && h.turn.player.testsReported!.value.passing)
  const said = counted
    ? `the Player reported ${hits.length === 1 ? `${hits[0]!.turn.player.testsReported!.value.count} tests` : 'its tests'} passing`
    : "the quality gate recorded the Player's tests as passed (the log does not say how many)"
  return [
    draft(input, {
      code: 'ENV_PARITY_GAP',
      severity: 'high',
      turns,
      message: `On ${formatTurns(turns)} ${said}, but the Coach's own run of them failed on infrastructure: the Coach ran pytest in a bare subprocess, without the Player's virtualenv, PATH or service variables (e.g. DATABASE_URL).`,
      evidence: hits.flatMap((h) => [...(h.turn.player.testsReported?.evidence ?? []), ...(h.turn.coach.gates?.evidence ?? []), ...h.evidence]).slice(0, 12),
      remediation: 'Run the Coach\'s tests with the Player\'s environment (autobuild.coach.test_execution: sdk, GuardKit 5c2b5d82+), or make the tests independent of local services (mocks, SQLite).',
      fixedIn: fixedBy('sdkTests'),
      source: {function: 'CoachValidator.run_independent_tests (subprocess.run shell=True)', spec: '§6.4'},
      deduction: 'the quality gate records tests_passed=True from the Player\'s own run, while the Coach\'s subprocess run of the same tests failed with an infrastructure signature; GuardKit of this era runs them with subprocess.run(shell=True), which sources no shell profile, so the two runs did not share an environment',
      detail: {turns},
    }),
  ]
}

/** How the Coach's own test run of a turn was started, as the log says (`Running independent tests via SDK …` or not), else null. */
function testRunVia(input: FamilyInput, turn: number): 'sdk' | 'subprocess' | null {
  const line = (input.task.signals ?? []).find((s) => s.turn === turn && /^Running independent tests/.test(s.text))
  return line === undefined ? null : /^Running independent tests via SDK/.test(line.text) ? 'sdk' : 'subprocess'
}

const ERROR_CONTEXT = /Error detail:|^\s*E\s|Traceback|\b\w*(Error|Exception):/m

/** FEEDBACK_NOT_ACTIONABLE: test-failure feedback that holds pytest's summary lines but not the error. */
function feedbackNotActionable(input: FamilyInput, feedback: Map<number, FeedbackView>): FindingDraft[] {
  const certain: FeedbackView[] = []
  const inferred: FeedbackView[] = []
  for (const t of input.task.turns) {
    const fb = feedback.get(t.turn)
    if (!fb || !/independent test verification failed/i.test(feedbackCategory(fb.text))) continue
    const body = fb.text.split('\n').slice(1).join('\n')
    if (ERROR_CONTEXT.test(body)) continue
    if (fb.completeness === 'full') certain.push(fb)
    else if (/^\s*(FAILED|ERROR)\b/.test(body) && !flagsOfProfile(input.asRun).summaryErrorContext) inferred.push(fb)
  }
  const chosen = certain.length > 0 ? certain : inferred
  if (chosen.length === 0) return []
  const turns = chosen.map((f) => f.turn)
  const sample = chosen[0]!.text.split('\n').slice(1, 3).map((l) => l.trim()).join(' / ')
  return [
    draft(input, {
      code: 'FEEDBACK_NOT_ACTIONABLE',
      severity: 'high',
      turns,
      message: sample === ''
        ? `The feedback after ${formatTurns(turns)} gave the Player no test output at all, only that the tests failed, so it could not tell why.`
        : `The feedback after ${formatTurns(turns)} gave the Player only pytest's summary lines ("${sample}"), not the error that explains the failure, so it could not tell why the tests failed.`,
      evidence: chosen.flatMap((f) => f.evidence).slice(0, 12),
      remediation: 'Run the failing test command yourself (reproduce shows it) and put the real error in the task\'s notes for the next run; GuardKit 5c2b5d82+ adds an "Error detail:" block to the feedback.',
      fixedIn: flagsOfProfile(input.asRun).summaryErrorContext ? null : fixedBy('summaryErrorContext'),
      source: {function: 'CoachValidator._summarize_test_output / AutoBuildOrchestrator._extract_feedback', spec: '§6.6, §8.3'},
      ...(certain.length > 0
        ? {}
        : {deduction: 'only the log\'s 80-code-point excerpt of the feedback is recorded; it goes straight from the header to a FAILED/ERROR line, which is the legacy summary (last keyword lines only); the fixed summary would start with "Error detail:"'}),
      detail: {turns, sample},
    }),
  ]
}

/**
 * ZERO_TEST_ANOMALY. When the Coach's own run of the task's tests passed on the same turns, the zero
 * the check saw came from the results it read, not from the Player's work: the test count was lost
 * between the Player and the Coach (pipeline-data-loss, inferred from the two records).
 */
function zeroTestAnomaly(input: FamilyInput): FindingDraft[] {
  const hits = input.task.turns.filter((t) => t.coach.zeroTestAnomaly?.value === true)
  if (hits.length === 0) return []
  const turns = hits.map((t) => t.turn)
  const passed = hits.filter((t) => t.coach.independentTests?.value.passed === true && t.coach.independentTests.value.skipped !== true)
  const lost = passed.length === hits.length
  return [
    draft(input, {
      code: 'ZERO_TEST_ANOMALY',
      ...(lost ? {category: 'pipeline-data-loss' as const} : {}),
      severity: 'medium',
      turns,
      message: lost
        ? `The Coach rejected ${formatTurns(turns)} because the results it read claimed success with zero tests, although its own run of the task's tests passed on ${hits.length === 1 ? 'that turn' : 'each of those turns'}: the tests existed and passed, so the zero was lost between the Player and the Coach.`
        : `The Coach rejected ${formatTurns(turns)} because the results claimed success with zero task-specific tests (tests_written empty, no test file found to run).`,
      evidence: [...hits.flatMap((t) => t.coach.zeroTestAnomaly!.evidence), ...passed.flatMap((t) => t.coach.independentTests!.evidence)],
      remediation: lost
        ? "Upgrade GuardKit so the results writer records the Player's test count (and the zero-test check uses the Coach's own test result); nothing in the task needs changing."
        : 'Have the Player write task-specific tests (test_*.py files named in its results), or give the task a type that needs no tests (scaffolding, documentation) if it has no code to test.',
      fixedIn: null,
      source: {function: 'CoachValidator._check_zero_test_anomaly', spec: '§6.8'},
      ...(lost ? {deduction: "on the same turns the Coach's independent run of the task's tests passed, so tests existed and ran; the results the zero-test check read said none did"} : {}),
    }),
  ]
}
