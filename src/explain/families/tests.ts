import {classifyTestFailure} from '../../logic/coach/classify-test-failure.js'
import {attemptOf} from '../../model/attempt-of.js'
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
    // the gates the Coach's feedback names are the turn's own record of which failed (docs/guardkit-logic.md §6.3): a
    // gate recorded as None counts as failed there, while the parsed gate line cannot tell None from absent
    const fb = feedback.get(t.turn)?.text ?? ''
    const named = (re: RegExp) => re.test(fb)
    const failed = [
      (gates?.testsPassed === false && gates.testsRequired !== false) || named(/Tests did not pass|Quality gate evaluation was not completed/) ? 'tests' : null,
      (gates?.coverageMet === false && gates.coverageRequired !== false) || named(/Coverage threshold not met/) ? 'coverage' : null,
      (gates?.archReviewPassed === false && gates.archReviewRequired !== false) || named(/Architectural review score below/) ? 'architecture review' : null,
      gates?.planAuditPassed === false || named(/Plan audit detected violations/) ? 'plan audit' : null,
    ].filter((x): x is string => x !== null)
    hits.push({turn: t.turn, failed, evidence: [...(t.coach.gates?.evidence ?? []), ...(event?.evidence ?? []), ...(feedback.get(t.turn)?.evidence ?? [])]})
  }
  if (hits.length === 0) return []
  const which = [...new Set(hits.flatMap((h) => h.failed))]
  // a gate named for a range of turns is the one each of those turns records: when the turns differ, say which on which
  const sets = new Map<string, number[]>()
  for (const h of hits) sets.set(h.failed.join(' and '), [...(sets.get(h.failed.join(' and ')) ?? []), h.turn])
  const named = [...sets.keys()].filter((k) => k !== '')
  const gatesSaid = named.length === 0 ? '' : sets.size === 1 ? ` (${named[0]})` : ` (${[...sets].filter(([k]) => k !== '').map(([k, ts]) => `${k} on ${formatTurns(ts)}`).join('; ')})`
  return [
    draft(input, {
      code: 'GATES_SHORT_CIRCUIT',
      severity: 'low',
      turns: hits.map((h) => h.turn),
      message: `On ${formatTurns(hits.map((h) => h.turn))} the quality gates failed${gatesSaid}, so the Coach returned before running its own tests and before checking any criterion: those turns say nothing about the criteria.`,
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
  /**
   * What says infrastructure: GuardKit's own classification record (`classification=infrastructure,
   * confidence=…`), an environment error in the recorded feedback or test output (no classification
   * logged), or the duration alone.
   */
  readonly source: 'classification' | 'text' | 'duration'
  /**
   * `high` when the record names a failure of the environment (GuardKit's high tier, or a connection or
   * database error in the text); `ambiguous` when it is an import or module error, which a dependency
   * missing where the Coach ran the tests and the Player's own code both raise (docs/guardkit-logic.md §6.7);
   * null for the duration alone.
   */
  readonly tier: 'high' | 'ambiguous' | null
  /** The pattern or classification that says infrastructure, or the duration that suggests it. */
  readonly why: string
  /** The environment error the feedback or output holds, when it holds one. */
  readonly pattern: string | null
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
    const pattern = text ? infraPattern(text) : null
    const evidence = [...it.evidence, ...(t.coach.testFailureClass?.evidence ?? []), ...(feedback.get(t.turn)?.evidence ?? [])]
    if (cls?.classification === 'infrastructure') {
      // GuardKit's own tier decides: "ambiguous" is its record that it could not tell the environment from the code
      const tier = cls.confidence === 'ambiguous' ? 'ambiguous' : 'high'
      out.push({turn: t, source: 'classification', tier, why: `GuardKit classified it infrastructure${cls.confidence ? `, ${cls.confidence} confidence` : ''}`, pattern, seconds, evidence})
      continue
    }
    // no classification logged (or an era that logs none): the text is read with GuardKit's fixed classifier, whose tier says how far it decides
    const byText = text ? classifyTestFailure(text, null, fixed) : null
    if (byText?.failureClass === 'infrastructure') {
      out.push({turn: t, source: 'text', tier: byText.confidence === 'high' ? 'high' : 'ambiguous', why: pattern ?? 'an infrastructure error', pattern, seconds, evidence})
      continue
    }
    const fullText = feedback.get(t.turn)?.completeness === 'full' || testOutputOf(t) !== null
    if (fullText || cls?.classification === 'code') continue
    if (seconds !== null && seconds <= FAST_FAILURE_SECONDS) out.push({turn: t, source: 'duration', tier: null, why: `failed in ${seconds} s`, pattern: null, seconds, evidence})
  }
  return out
}

const INFRA_WORDS = ['OperationalError', 'ConnectionRefusedError', 'Connection refused', 'could not connect to server', 'ConnectionError', 'ModuleNotFoundError', 'No module named', 'ImportError', 'psycopg2', 'asyncpg']
/** The words of an error that names a service the tests could not reach (a database, a connection). */
const SERVICE_WORDS = /OperationalError|Connection ?Refused|could not connect|ConnectionError|psycopg|asyncpg|pymongo|redis/i
const MODULE_WORDS = /ModuleNotFoundError|No module named/i

function infraPattern(text: string): string | null {
  return INFRA_WORDS.find((w) => text.toLowerCase().includes(w.toLowerCase())) ?? null
}

/** The test output the Coach recorded in coach_turn_N.json, when there is one. */
function testOutputOf(t: TurnRecord): string | null {
  const report = asObject(t.artifacts.coachReport?.json)
  const it = asObject(asObject(report?.['validation_results'])?.['independent_tests'])
  const raw = it?.['raw_output'] ?? it?.['test_output_summary']
  return typeof raw === 'string' && raw !== '' ? raw : null
}

function infraTestFailure(input: FamilyInput, infra: readonly InfraTurn[]): FindingDraft[] {
  const high = infra.filter((i) => i.tier === 'high')
  const ambiguous = infra.filter((i) => i.tier === 'ambiguous')
  const chosen = high.length > 0 ? high : ambiguous.length > 0 ? ambiguous : infra
  if (chosen.length === 0) return []
  const kind: 'high' | 'ambiguous' | 'duration' = high.length > 0 ? 'high' : ambiguous.length > 0 ? 'ambiguous' : 'duration'
  const turns = chosen.map((i) => i.turn.turn)
  const secs = chosen.map((i) => i.seconds).filter((s): s is number => s !== null)
  const range = secs.length ? ` in ${Math.min(...secs)}${Math.max(...secs) !== Math.min(...secs) ? `–${Math.max(...secs)}` : ''} s` : ''
  const why = [...new Set(chosen.map((i) => i.why))]
  const patterns = [...new Set(chosen.map((i) => i.pattern).filter((p): p is string => p !== null))]
  const sdk = flagsOfProfile(input.asRun).sdkTests || input.run.eraMarkers.some((m) => m.id === 'independent-tests-via-sdk')
  // what the run itself shows was in effect is never advised again: say that it did not fix it
  const viaSdk = (input.task.signals ?? []).find((s) => /Running independent tests via SDK/.test(s.text) && (s.turn === null || turns.includes(s.turn)))
  const byClassification = chosen.some((i) => i.source === 'classification')
  const message =
    kind === 'high'
      ? `The Coach's own test run failed for an infrastructure reason on ${formatTurns(turns)}${range} (${why.slice(0, 2).join('; ')}): the tests stopped on their environment (a service, a connection or a dependency they need), not on an assertion about the code.`
      : kind === 'ambiguous'
        ? byClassification
          ? `The Coach's own test run failed on ${formatTurns(turns)}${range}, and GuardKit classified the failure as infrastructure only at ambiguous confidence, its tier for an import or module error: such an error comes either from a dependency missing where the Coach ran the tests or from the Player's own code, and the records do not say which.`
          : `The Coach's own test run failed on ${formatTurns(turns)}${range} (${why.slice(0, 2).join('; ')}): the feedback names an import error, and GuardKit logged no classification of it; such an error comes either from a dependency missing where the Coach ran the tests or from the Player's own code, and the records do not say which.`
        : `The Coach's own test run failed${range} on ${formatTurns(turns)}: a time that says an import or connection failure, not test execution, so the Player's code was probably never exercised.`
  const deduction =
    kind === 'high'
      ? undefined
      : kind === 'ambiguous'
        ? byClassification
          ? "GuardKit's classifier (docs/guardkit-logic.md §6.7) records infrastructure at ambiguous confidence for an ImportError or a ModuleNotFoundError of a module that is not a known service client: it did not decide between the environment and the code, and the log holds no test output that does"
          : `the log records no classification of the failure; the feedback${patterns.length ? ` holds ${patterns.join(', ')}, which` : ' holds an import error, which'} GuardKit's classifier (docs/guardkit-logic.md §6.7) counts as infrastructure at ambiguous confidence only: a dependency missing where the Coach ran the tests and the Player's own code both raise it`
        : `the test output is not recorded; every failure took at most ${FAST_FAILURE_SECONDS} s (${secs.join(', ')} s), which is the time pytest needs to fail on an import or a refused connection, not to run a test suite`
  return [
    draft(input, {
      code: 'INFRA_TEST_FAILURE',
      severity: 'critical',
      turns,
      message,
      evidence: chosen.flatMap((i) => i.evidence).slice(0, 12),
      remediation: infraRemedy(kind, patterns, viaSdk === undefined ? null : `${viaSdk.evidence.file}:${viaSdk.evidence.line ?? '?'}`, startedServices(input)),
      fixedIn: sdk ? null : fixedBy('sdkTests', 'classifyFailure'),
      source: {function: 'CoachValidator.run_independent_tests / _classify_test_failure', spec: '§6.4, §6.7'},
      ...(deduction === undefined ? {} : {deduction}),
      detail: {turns: chosen.map((i) => ({turn: i.turn.turn, seconds: i.seconds, why: i.why, source: i.source, tier: i.tier}))},
    }),
  ]
}

/** The services GuardKit started in a Docker container for the Coach's tests in this run, with the first record of it. */
interface StartedServices {
  readonly services: readonly string[]
  readonly at: string
}

function startedServices(input: FamilyInput): StartedServices | null {
  const started = attemptOf(input.run, input.task.attempt)?.settings.serviceContainers
  const first = started?.evidence[0]
  if (started == null || started.value.length === 0 || first === undefined) return null
  return {services: started.value, at: `${first.file}:${first.line ?? '?'}`}
}

/**
 * The advice follows the error the records hold: a service the tests could not reach is mocked or started; a
 * missing module is installed where the Coach's pytest runs; an import error the records do not explain is
 * reproduced first, since it may be the Player's own code. A reading that rests on the failure's time alone, or a
 * classification with no error text, is reproduced first too: no service is named, so mocking one is not advised.
 * What the run already did (the SDK, a service container GuardKit started) is said, not advised again.
 */
function infraRemedy(kind: 'high' | 'ambiguous' | 'duration', patterns: readonly string[], viaSdkAt: string | null, started: StartedServices | null): string {
  const service = patterns.some((p) => SERVICE_WORDS.test(p))
  const module = patterns.some((p) => MODULE_WORDS.test(p))
  const sdkNote = viaSdkAt === null ? '' : `The Coach's tests already ran through the SDK, in the Player's environment (${viaSdkAt}), and that did not fix it. `
  const sdkAdvice = viaSdkAt === null ? ", or run the Coach's tests in the Player's environment (autobuild.coach.test_execution: sdk in .guardkit/config.yaml, GuardKit 5c2b5d82+)" : ''
  const startedNote = started === null ? '' : `GuardKit started a Docker container for ${started.services.join(', ')} for the Coach's tests in this run (${started.at}), so the service was not simply absent. `
  if (kind === 'ambiguous' && !service) {
    return `${sdkNote}${startedNote}Run the Coach's test command yourself (reproduce shows it) to see the whole error: if it names the project's own code (a conftest or module the Player wrote), that code is what to fix; if it names a module that is not installed, install it into the interpreter the Coach's pytest resolves to${sdkAdvice}.`
  }
  if (service && started !== null) {
    return `${sdkNote}${startedNote}Run the Coach's test command yourself (reproduce shows it) to see whether the tests reached that container (the connection settings GuardKit gave them, the container accepting connections), and fix what stops them; mocking the services in conftest.py is the alternative${sdkAdvice}.`
  }
  if (service) return `${sdkNote}Mock the database (and other services) in conftest.py or use SQLite for tests, or start the services the tests need before the run${sdkAdvice}.`
  if (module) return `${sdkNote}${startedNote}Install the module the error names into the interpreter the Coach's pytest resolves to${sdkAdvice}.`
  const basis = kind === 'duration' ? "The records hold no error of the Coach's test run (the environment reading is inferred from its time alone)" : "The records hold no error text of the Coach's test run, only GuardKit's classification of it"
  return `${sdkNote}${startedNote}${basis}: run the Coach's test command yourself (reproduce shows it) and fix what its error names (a service the tests need, a module missing where the Coach's pytest runs, or the project's own code)${sdkAdvice}.`
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
      message: `On ${formatTurns(turns)} ${said}, but the Coach's own run of them failed on ${hits.every((h) => h.tier === 'ambiguous') ? 'an import error' : 'infrastructure'}: the Coach ran pytest in a bare subprocess, without the Player's virtualenv, PATH or service variables (e.g. DATABASE_URL).`,
      evidence: hits.flatMap((h) => [...(h.turn.player.testsReported?.evidence ?? []), ...(h.turn.coach.gates?.evidence ?? []), ...h.evidence]).slice(0, 12),
      remediation: hits.some((h) => h.pattern !== null && SERVICE_WORDS.test(h.pattern))
        ? 'Run the Coach\'s tests with the Player\'s environment (autobuild.coach.test_execution: sdk, GuardKit 5c2b5d82+), or make the tests independent of local services (mocks, SQLite).'
        : 'Run the Coach\'s tests with the Player\'s environment (autobuild.coach.test_execution: sdk, GuardKit 5c2b5d82+).',
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
    // a header ending in a colon with nothing after it, read from a log line: the progress line shows the feedback's
    // first line only, and GuardKit appends the test summary after that header (docs/guardkit-logic.md §6.6), so the
    // log does not show whether the Player got test output: no claim either way
    if (body.trim() === '' && headerOnlyInLog(fb)) continue
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

/** Feedback whose only record is a log line holding its header (`Feedback: - Independent test verification failed:`). */
function headerOnlyInLog(fb: FeedbackView): boolean {
  return fb.from === 'record' && /:\s*$/.test(fb.text) && fb.evidence.every((e) => !e.file.endsWith('.json'))
}

/**
 * ZERO_TEST_ANOMALY, worded by which of the check's two conditions its record names (docs/guardkit-logic.md §6.8):
 * no task-specific test written or found (`tests_written=[]`, independent run skipped), or quality gates said to
 * pass with `tests_passed=0` and no coverage. When the Coach's own run of the task's tests passed on the same
 * turns, the zero the check saw came from the results it read, not from the Player's work: the test count was
 * lost between the Player and the Coach (pipeline-data-loss, inferred from the two records).
 */
function zeroTestAnomaly(input: FamilyInput): FindingDraft[] {
  const hits = input.task.turns.filter((t) => t.coach.zeroTestAnomaly?.value === true)
  if (hits.length === 0) return []
  const turns = hits.map((t) => t.turn)
  const passed = hits.filter((t) => t.coach.independentTests?.value.passed === true && t.coach.independentTests.value.skipped !== true)
  const lost = passed.length === hits.length
  const feedback = feedbackByTurn(input.task)
  const said = hits.flatMap((t) => [...t.coach.zeroTestAnomaly!.evidence.map((e) => e.text ?? ''), feedback.get(t.turn)?.text ?? '']).join('\n')
  const shape = /tests_passed=0|no tests were executed/i.test(said) ? 'gates' : /tests_written|no task-specific tests/i.test(said) ? 'no-tests' : null
  const on = hits.length === 1 ? 'that turn' : 'each of those turns'
  const message =
    shape === 'gates'
      ? lost
        ? `The Coach's zero-test check rejected ${formatTurns(turns)}: the results it read said every quality gate passed with tests_passed=0 and coverage=null, although its own run of the task's tests passed on ${on}. The tests existed and passed, so the results the check read did not carry them.`
        : `The Coach's zero-test check rejected ${formatTurns(turns)}: the results it read said every quality gate passed with tests_passed=0 and coverage=null, that is with no test run recorded.`
      : lost
        ? `The Coach's zero-test check rejected ${formatTurns(turns)}, although its own run of the task's tests passed on ${on}: the tests existed and passed, so the zero the check saw was lost between the Player and the Coach.`
        : `The Coach rejected ${formatTurns(turns)} because the results claimed success with zero task-specific tests (tests_written empty, no test file found to run).`
  const remediation =
    shape === 'gates'
      ? lost
        ? "The task's tests ran and passed in the Coach's own run; what rejected the turns is the check reading tests_passed=0 and no coverage from the results. Have the Player record its test run in its results (tests_passed, coverage), and check the GuardKit version: the check as modelled (docs/guardkit-logic.md §6.8) does not fire once the Coach's own run of the task's tests has passed."
        : "Have the Player run the task's tests and record them in its results (tests_passed and coverage), so the quality gates it reports rest on a test run."
      : lost
        ? "Upgrade GuardKit so the results writer records the Player's test count (and the zero-test check uses the Coach's own test result); nothing in the task needs changing."
        : 'Have the Player write task-specific tests (test_*.py files named in its results), or give the task a type that needs no tests (scaffolding, documentation) if it has no code to test.'
  return [
    draft(input, {
      code: 'ZERO_TEST_ANOMALY',
      ...(lost ? {category: 'pipeline-data-loss' as const} : {}),
      severity: 'medium',
      turns,
      message,
      evidence: [...hits.flatMap((t) => t.coach.zeroTestAnomaly!.evidence), ...passed.flatMap((t) => t.coach.independentTests!.evidence)],
      remediation,
      fixedIn: null,
      source: {function: 'CoachValidator._check_zero_test_anomaly', spec: '§6.8'},
      ...(lost
        ? {deduction: shape === 'gates'
          ? "on the same turns the Coach's independent run of the task's tests passed, so tests existed and ran; the results the zero-test check read recorded tests_passed=0 and no coverage"
          : "on the same turns the Coach's independent run of the task's tests passed, so tests existed and ran; the results the zero-test check read said none did"}
        : {}),
      detail: {shape},
    }),
  ]
}
