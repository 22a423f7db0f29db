/**
 * Hand-built AnalysisReport values for the renderer tests. `db003Report()` follows the
 * TASK-DB-003 run of seed 002 and fixtures/runs/db-003-timeout/README.md (signatures derived there
 * with CPython), shaped the way docs/cli.md "The text report" describes it — not taken from our own output.
 */
import {CODE_CLASSES} from '../../../src/explain/diagnosis/code-classes.js'
import type {AnalysisReport, TaskAnalysis, TaskVerdict} from '../../../src/explain/analysis.js'
import type {Finding, FindingCode} from '../../../src/model/finding.js'
import type {RunRecord, TaskRun, TurnRecord} from '../../../src/model/run-record.js'
import {emptyTurnDetail, type ReplayedTurn, type StallCheck, type TaskReplay} from '../../../src/replay/types.js'

export function aTurnRecord(turn: number, o: {decision?: 'approve' | 'feedback' | 'error' | null; met?: number | null; total?: number | null; feedback?: string | null; line?: number; truncated?: boolean} = {}): TurnRecord {
  const line = o.line ?? 100 + turn * 10
  const ev = (l: number) => [{file: 'run.log', line: l}]
  const decision = o.decision === undefined ? 'feedback' : o.decision
  return {
    turn,
    player: {status: {value: 'success', evidence: ev(line)}, error: null, filesCreated: null, filesModified: null, toolInputKeys: null, reportSource: null, promisesRecovered: null, sdkTurns: null},
    coach: {
      decision: decision === null ? null : {value: decision, evidence: ev(line + 5)},
      criteriaMet: o.met === null ? null : {value: o.met ?? 0, evidence: ev(line + 3)},
      criteriaTotal: o.total === null ? null : {value: o.total ?? 6, evidence: ev(line + 3)},
      verified: null,
      rejected: null,
      pending: null,
      feedback: o.feedback == null ? null : {text: o.feedback, completeness: o.truncated ? 'truncated' : 'full', truncatedAt: o.truncated ? 80 : null, evidence: ev(line + 4)},
      gates: null,
      testCommand: null,
      independentTests: null,
      diagnosticDump: null,
      missingCriteria: null,
      issueCategories: null,
      zeroTestAnomaly: null,
    },
    stateRecovery: null,
    checkpoint: null,
    perspectiveReset: null,
    startedAt: null,
    endedAt: null,
    artifacts: {playerReport: [], coachReport: null, taskWorkResults: [], feedbackFile: null, workState: null, coachEvidence: null, turnState: null},
  }
}

export function aTask(taskId: string, turns: TurnRecord[], o: Partial<TaskRun> = {}): TaskRun {
  return {
    taskId,
    attempt: 1,
    featureId: null,
    mode: {value: 'task-work', evidence: [{file: 'run.log', line: 54}]},
    taskType: null,
    complexity: null,
    maxTurns: null,
    outcome: {value: 'approved', evidence: [{file: 'run.log', line: 132}]},
    turnCount: {value: turns.length, evidence: []},
    turns,
    stall: null,
    events: [],
    criteria: null,
    taskFile: null,
    artifactDir: null,
    summary: null,
    ...o,
  }
}

export function aRun(tasks: TaskRun[], o: Partial<RunRecord> = {}): RunRecord {
  return {path: 'fixtures/runs/db-003-timeout', logs: ['run.log'], worktrees: [], attempts: [], tasks, feature: null, eraMarkers: [], ingestIssues: [], loggerStats: [], ...o}
}

export function aReplayedTurn(turn: number, o: Partial<ReplayedTurn> = {}): ReplayedTurn {
  return {
    turn,
    decision: 'feedback',
    criteriaMet: 0,
    criteriaTotal: 6,
    feedback: null,
    feedbackBasis: 'recorded',
    signature: null,
    stall: null,
    fidelity: 'exact',
    confidence: 'recorded',
    missingInputs: [],
    assumptions: [],
    diverges: false,
    logs: [],
    detail: emptyTurnDetail(),
    ...o,
  }
}

export function aFinding(id: string, code: FindingCode, o: Partial<Finding> = {}): Finding {
  return {
    id,
    code,
    category: CODE_CLASSES[code].category,
    severity: 'medium',
    confidence: 'certain',
    taskId: 'TASK-DB-003',
    attempt: 1,
    turns: [1],
    message: `${code} happened`,
    evidence: [{file: 'run.log', line: 357}],
    reproduce: `guardkit-replay explain fixtures/runs/db-003-timeout --task TASK-DB-003 --turn 1`,
    remediation: 'do something',
    fixedIn: null,
    causes: [],
    source: {function: 'CoachValidator.validate', spec: '§6'},
    ...o,
  }
}

export function aVerdict(o: Partial<TaskVerdict> = {}): TaskVerdict {
  return {happened: 'approved at turn 1', why: '', underProfiles: [], waste: null, doNow: [], fixedIn: [], notFixed: [], ok: true, ...o}
}

const LEGACY_SIGS: Record<number, string> = {1: 'deaab5ff', 2: 'f696a94c', 3: 'deaab5ff', 4: '7e14c185', 5: '5ebda8f1', 6: 'deaab5ff', 7: 'faddebcf', 8: '5ebda8f1', 9: 'deaab5ff', 10: '7e14c185', 11: '5ebda8f1', 12: 'deaab5ff', 13: '7e14c185', 14: '5ebda8f1', 15: 'deaab5ff', 16: '7e14c185', 17: '5ebda8f1'}
const FIXED_SIG = (turn: number) => (turn === 2 ? 'f696a94c' : '82511af6')
const INFRA = '- Independent test verification failed:\n  FAILED tests/users/test_users.py::TestUserCreate::test_create_user - OperationalError\n  ==== 1 failed in 1.73s ===='
const COVERAGE = '- Coverage threshold not met'

function stallCheck(turn: number, sigOf: (t: number) => string, threshold = 3): StallCheck {
  const from = Math.max(1, turn - threshold + 1)
  const window = Array.from({length: turn - from + 1}, (_, i) => ({turn: from + i, signature: sigOf(from + i), count: 0}))
  const fired = window.length === threshold && window.every((w) => w.signature === window[0]!.signature)
  return {
    signature: sigOf(turn),
    rawSignature: LEGACY_SIGS[turn] ?? '00000000',
    normalisedSignature: FIXED_SIG(turn),
    count: 0,
    window,
    threshold,
    fired,
    reason: fired ? `${threshold} equal signatures in the last ${threshold} turns, 0 criteria passing` : `${new Set(window.map((w) => w.signature)).size} different signatures in the last ${window.length} turns`,
  }
}

function legacyReplay(profile: string): TaskReplay {
  const turns = Array.from({length: 17}, (_, i) => i + 1).map((turn) =>
    aReplayedTurn(turn, {signature: LEGACY_SIGS[turn]!, stall: stallCheck(turn, (t) => LEGACY_SIGS[t]!)}),
  )
  return {profile, outcome: {kind: 'recorded-boundary', outcome: 'cancelled', turn: 18, evidence: [{file: 'run.log', line: 1423}]}, stallTurn: null, turns, missingInputs: []}
}

function fixedReplay(): TaskReplay {
  const turns = [1, 2, 3, 4, 5].map((turn) =>
    aReplayedTurn(turn, {
      signature: FIXED_SIG(turn),
      stall: stallCheck(turn, FIXED_SIG),
      fidelity: turn === 2 ? 'exact' : 'approximate',
      assumptions: turn === 2 ? [] : ['feedback rebuilt from log categories; test results held as recorded'],
      diverges: false,
    }),
  )
  return {profile: 'fixed', outcome: {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 5}, stallTurn: 5, turns, missingInputs: []}
}

/** TASK-DB-003 of seed 002 plus the two approved tasks of its feature. */
export function db003Report(): AnalysisReport {
  const dbTurns = Array.from({length: 18}, (_, i) => i + 1).map((turn) =>
    turn === 18 ? aTurnRecord(18, {decision: 'error', met: null, total: null}) : aTurnRecord(turn, {feedback: turn === 2 ? COVERAGE : INFRA}),
  )
  const db3 = aTask('TASK-DB-003', dbTurns, {
    featureId: 'FEAT-BA28',
    outcome: {value: 'cancelled', evidence: [{file: 'run.log', line: 1423}]},
    turnCount: {value: 18, evidence: []},
    events: [{kind: 'feature-timeout', turn: 18, seconds: 2400, evidence: [{file: 'run.log', line: 1404}]}],
  })
  const f = [
    aFinding('f1', 'INFRA_TEST_FAILURE', {severity: 'high', turns: [1, ...Array.from({length: 15}, (_, i) => i + 3)], message: "The Coach's independent run failed in 1.7–3.1 s every turn: an import or connection failure, not test execution.", remediation: 'Mock the database in conftest.py or use SQLite for tests.'}),
    aFinding('f2', 'STALL_DEFEATED_BY_VARIABLE_OUTPUT', {severity: 'high', turns: [3, 4, 5], causes: ['f3'], message: 'Same feedback category for 15 turns but the md5 signatures never repeated; normalised signatures would have stopped at turn 5.', fixedIn: {flags: ['stallNormalize'], commit: '5c2b5d82'}, source: {function: 'AutoBuildOrchestrator._is_feedback_stalled', spec: '§8.4'}}),
    aFinding('f3', 'FEEDBACK_NOT_ACTIONABLE', {severity: 'medium', turns: [1, 17], causes: ['f1'], message: 'The summary sent to the Player kept the last keyword lines and dropped the error.'}),
    aFinding('f4', 'ENDED_BY_TIMEOUT_NOT_STALL', {severity: 'medium', turns: [18], causes: ['f2'], message: 'The 2400 s feature task timeout ended the task (line 1404), not the stall detector.', evidence: [{file: 'run.log', line: 1404}, {file: 'run.log', line: 1423}]}),
    aFinding('f5', 'STALL_WINDOW_BROKEN', {severity: 'low', turns: [2], message: 'Turn 2 short-circuited on coverage, a different signature inside the first window.'}),
    aFinding('f6', 'ABSOLUTE_RELATIVE_DUPLICATES', {severity: 'low', turns: [1, 7], message: 'The same test file was passed twice to pytest (lines 357, 779).', confidence: 'inferred', deduction: 'the absolute and relative paths name the same file under the worktree'}),
  ]
  const db3Analysis: TaskAnalysis = {
    task: db3,
    replays: {'as-run:351c53fa': legacyReplay('as-run:351c53fa'), legacy: legacyReplay('legacy'), fixed: fixedReplay()},
    findings: f,
    // seed 002 (docs/root-causes.md): primary test-environment; contributing loop-control and timeout
    diagnosis: {
      primary: {
        category: 'test-environment',
        findingId: 'f1',
        summary: "test-environment: the Coach's own test run failed on infrastructure, not on the code on t1, t3–t17",
        evidence: [{file: 'run.log', line: 357, text: 'Independent test verification failed for TASK-DB-003 (classification=infrastructure)'}],
      },
      contributing: [{category: 'loop-control', findingIds: ['f2', 'f3']}, {category: 'timeout', findingIds: ['f4']}],
      confidence: 'certain',
    },
    verdict: aVerdict({
      happened: 'cancelled at turn 18 (feature task timeout, 2400 s)',
      why: "the Coach's own test run could not reach the database, every turn; the Player was never told why; and the stall detector could not see that the feedback repeated",
      underProfiles: [
        {profile: 'as-run:351c53fa', text: 'would loop the same way (cancelled at turn 18: the recorded timeout ended it)'},
        {profile: 'legacy', text: 'would loop the same way (cancelled at turn 18: the recorded timeout ended it)'},
        {profile: 'fixed', text: 'stops at turn 5: unrecoverable_stall, normalised signature 82511af6'},
      ],
      waste: {shouldHaveStoppedAt: 5, turnsWasted: 13, minutesWasted: 29.6, basis: 'fixed stops at turn 5; turns 6–18 ran for 29.6 min (progress timestamps)'},
      doNow: ['mock the database in conftest.py or use SQLite for tests', "run the Coach's tests with the Player's environment (fixed: autobuild.coach.test_execution = sdk)"],
      fixedIn: ['stallNormalize (5c2b5d82)', 'summaryErrorContext (5c2b5d82)'],
      notFixed: ['gate short-circuit ordering'],
      ok: false,
    }),
    whatif: {
      baseline: 'as-run:351c53fa',
      baselineOutcome: 'cancelled (recorded)',
      flips: [{flags: ['stallNormalize'], outcome: 'unrecoverable_stall', changesAtTurn: 5, fidelity: 'approximate'}],
      fixedStillFails: 'fixed stops the loop at turn 5 but does not make the tests pass: the database is unreachable from the Coach, so the task still fails.',
      searched: 'single flags and pairs of the 9 flags this task read',
    },
  }
  const ok = (id: string, met: number): TaskAnalysis => {
    const task = aTask(id, [aTurnRecord(1, {decision: 'approve', met, total: met})], {featureId: 'FEAT-BA28'})
    const approved = (profile: string): TaskReplay => ({profile, outcome: {kind: 'replayed', outcome: 'approved', turn: 1}, stallTurn: null, turns: [aReplayedTurn(1, {decision: 'approve', criteriaMet: met, criteriaTotal: met})], missingInputs: []})
    return {
      task,
      replays: {
        'as-run:351c53fa': approved('as-run:351c53fa'),
        legacy: {profile: 'legacy', outcome: {kind: 'undetermined', afterTurn: 1}, stallTurn: null, turns: [aReplayedTurn(1, {criteriaMet: 0, criteriaTotal: met, diverges: true})], missingInputs: ['what the Player would do after a rejected turn 1']},
        fixed: approved('fixed'),
      },
      findings: [],
      diagnosis: null,
      verdict: aVerdict({
        happened: 'approved at turn 1',
        underProfiles: [
          {profile: 'as-run:351c53fa', text: 'approved at turn 1'},
          {profile: 'legacy', text: `rejects turn 1 (0/${met}: promises overwritten); undetermined after turn 1`},
          {profile: 'fixed', text: 'approved at turn 1'},
        ],
      }),
      whatif: null,
    }
  }
  const tasks = [ok('TASK-DB-001', 6), ok('TASK-DB-002', 5), db3Analysis]
  return {
    tool: {name: 'guardkit-replay', version: '0.1.0'},
    run: aRun(tasks.map((t) => t.task), {worktrees: ['.']}),
    era: {
      profile: 'as-run:351c53fa',
      window: {from: '351c53fa', to: '8a697b80'},
      reason: 'stall-error-v1 wording and ToolUseBlock key records, no synthetic-direct log line',
      confidence: 'high',
      evidence: Array.from({length: 12}, (_, i) => ({file: 'run.log', line: 200 + i})),
      modelled: true,
    },
    profiles: [
      {name: 'as-run:351c53fa', description: 'GuardKit as it ran at 351c53fa'},
      {name: 'legacy', description: 'GuardKit at f86b1bf9, before the seed fixes'},
      {name: 'fixed', description: 'GuardKit at 5c1aea32, every seed fix landed'},
    ],
    tasks,
    feature: {
      featureId: 'FEAT-BA28',
      waves: [
        {wave: 1, taskIds: ['TASK-DB-001'], statuses: {'TASK-DB-001': 'SUCCESS'}},
        {wave: 2, taskIds: ['TASK-DB-002', 'TASK-DB-003'], statuses: {'TASK-DB-002': 'SUCCESS', 'TASK-DB-003': 'TIMEOUT'}},
      ],
      featureResult: 'FAILED',
      timeouts: [{taskId: 'TASK-DB-003', seconds: 2400, turn: 18, evidence: [{file: 'run.log', line: 1404}]}],
      disagreements: [],
    },
  }
}

/**
 * A one-turn task rejected 0/2 by the text strategy against an empty `requirements_met` (seed 003
 * pattern, ZERO_OF_N_TEXT_MATCH_EMPTY), with GuardKit's 0/N dump recorded, a near miss on AC-002 under
 * `fixed`, and an agent report whose promises the invoker overwrote under `legacy`.
 */
export function zeroOfNReport(): AnalysisReport {
  const dumpLines = [
    'Criteria verification 0/2 - diagnostic dump:',
    '  AC text: Users can log in with email and password',
    '  AC text: Passwords are hashed with bcrypt',
    '  requirements_met: []',
    '  completion_promises: (not used)',
    '  matching_strategy: text',
    '  _synthetic: False',
  ]
  const turn = aTurnRecord(1, {met: 0, total: 2, feedback: '- Not all acceptance criteria met:\n  • Users can log in with email and password\n  • Passwords are hashed with bcrypt'})
  const recorded: TurnRecord = {...turn, coach: {...turn.coach, diagnosticDump: {value: {met: 0, total: 2, criteria: dumpLines.slice(1, 3), requirementsMet: '[]', completionPromises: '(not used)', matchingStrategy: 'text', synthetic: false, lines: dumpLines}, evidence: [{file: 'run.log', line: 88}]}}}
  const task = aTask('TASK-AUTH-002', [recorded], {outcome: {value: 'max_turns_exceeded', evidence: [{file: 'run.log', line: 120}]}, criteria: {texts: ['Users can log in with email and password', 'Passwords are hashed with bcrypt'], source: 'task-file', complete: true, evidence: [{file: 'tasks/TASK-AUTH-002.md', line: 12}]}})
  const textCriterion = (index: number, text: string, closest: {requirement: string; jaccard: number} | null) => ({
    index,
    criterion_id: `AC-00${index + 1}`,
    text,
    verdict: 'rejected' as const,
    decidedBy: 'text-none' as const,
    promise: null,
    text_match: {
      source: 'requirements_met',
      requirements: closest === null ? [] : [closest.requirement],
      rules: 'acr' as const,
      stripped: text,
      normalized: text.toLowerCase(),
      keywords: [],
      step: null,
      matched: null,
      closest: closest === null ? null : {index: 0, requirement: closest.requirement, stripped: closest.requirement, exact: false, substring: false, keywords: [], jaccard: closest.jaccard, meetsRule: false},
      threshold: 0.7,
    },
  })
  const legacyDetail = emptyTurnDetail()
  const legacyTurn = aReplayedTurn(1, {
    criteriaTotal: 2,
    feedback: recorded.coach.feedback!.text,
    detail: {
      ...legacyDetail,
      player: {...legacyDetail.player, source: 'pipeline-task-work', mode: 'task-work', events: [{step: 'AgentInvoker._write_player_report', kind: 'overwritten', field: 'completion_promises', values: [{criterion_id: 'AC-001', status: 'complete'}], flag: 'recoverAgentPromises', message: 'the agent-written report held 2 promises; the invoker wrote its own report without them'}]},
      coach: {...legacyDetail.coach, source: 'validated', step: 'requirements', requirements: {strategy: 'text', synthetic: false, promiseSource: {kind: 'none', reason: 'no completion_promises in task_work_results.json or player_turn_1.json'}, promises: [], requirements: {source: 'requirements_met', value: []}, dumped: true, unknowns: [], criteria: [textCriterion(0, 'Users can log in with email and password', null), textCriterion(1, 'Passwords are hashed with bcrypt', null)]}},
    },
    logs: dumpLines.map((message) => ({level: 'WARNING', logger: 'guardkit.orchestrator.quality_gates.coach_validator', message})),
  })
  const fixedDetail = emptyTurnDetail()
  const fixedTurn = aReplayedTurn(1, {
    criteriaMet: 1,
    criteriaTotal: 2,
    feedback: '- Not all acceptance criteria met:\n  • Passwords are hashed with bcrypt',
    feedbackBasis: 'full',
    diverges: true,
    detail: {
      ...fixedDetail,
      coach: {...fixedDetail.coach, source: 'validated', step: 'requirements', requirements: {strategy: 'hybrid', synthetic: false, promiseSource: {kind: 'current-report', turn: 1, path: 'player_turn_1.json'}, promises: [], requirements: {source: 'requirements_addressed', value: ['hash passwords']}, dumped: false, unknowns: [], criteria: [{...textCriterion(0, 'Users can log in with email and password', null), verdict: 'verified', decidedBy: 'promise-complete', text_match: null, promise: {promise: {criterion_id: 'AC-001', status: 'complete'}, ids: ['AC-001']}}, textCriterion(1, 'Passwords are hashed with bcrypt', {requirement: 'hash passwords', jaccard: 0.5})]}},
      differences: [{field: 'criteriaMet', recorded: 0, replayed: 1, evidence: [{file: 'run.log', line: 84}]}],
    },
  })
  const t: TaskAnalysis = {
    task,
    replays: {
      legacy: {profile: 'legacy', outcome: {kind: 'undetermined', afterTurn: 1}, stallTurn: null, turns: [legacyTurn], missingInputs: []},
      fixed: {profile: 'fixed', outcome: {kind: 'undetermined', afterTurn: 1}, stallTurn: null, turns: [fixedTurn], missingInputs: ['what the Player would do with different feedback']},
    },
    findings: [aFinding('f1', 'ZERO_OF_N_TEXT_MATCH_EMPTY', {taskId: 'TASK-AUTH-002', severity: 'high', message: 'Both criteria were text-matched against an empty requirements_met list.'})],
    diagnosis: {
      primary: {category: 'criteria-matching', findingId: 'f1', summary: 'criteria-matching: the Coach matched the criteria against nothing (0/N) on t1', evidence: [{file: 'run.log', line: 84}]},
      contributing: [],
      confidence: 'certain',
    },
    verdict: aVerdict({ok: false, happened: 'max_turns_exceeded after 1 turn', why: 'the promises never reached the Coach', underProfiles: [{profile: 'legacy', text: 'rejects turn 1 the same way (0/2)'}, {profile: 'fixed', text: 'verifies 1/2 on turn 1; undetermined after'}]}),
    whatif: {baseline: 'legacy', baselineOutcome: 'undetermined after turn 1', flips: [], fixedStillFails: null, searched: 'single flags of the 4 flags this task read'},
  }
  return {
    tool: {name: 'guardkit-replay', version: '0.1.0'},
    run: aRun([task], {path: 'runs/auth'}),
    era: {profile: null, window: {from: null, to: null}, reason: 'no documented version marker in the records', confidence: 'low', evidence: [], modelled: true},
    profiles: [{name: 'legacy', description: 'legacy'}, {name: 'fixed', description: 'fixed'}],
    tasks: [t],
    feature: null,
  }
}

/** The same report as if no task had a diagnosis (what a renderer shows from the findings alone). */
export function undiagnosed(report: AnalysisReport): AnalysisReport {
  return {...report, tasks: report.tasks.map((t) => ({...t, diagnosis: null}))}
}
