import {describe, expect, it} from 'vitest'
import {checkAutobuildState} from '../../../../src/ingest/merge/autobuild-state.js'
import type {IngestIssue} from '../../../../src/model/ingest-issue.js'
import type {TaskRun} from '../../../../src/model/run-record.js'
import {turnTimes} from '../../../../src/explain/record-facts.js'
import {fact, taskRun, turn} from '../helpers.js'
import {analyse, approvedTurn, coachTestsFailTurn, complete, directReportMissingTurn, playerFailsTurn, sdkLimitTurn, syntheticReportJudged} from './authored-runs.js'
import {runOf, signalsOf, TASK} from './signal-harness.js'
import {taskSignals} from '../../../../src/explain/diagnosis/task-signals.js'
import {builtinCatalogue} from '../../../../src/explain/diagnosis/catalogue/builtin.js'
import {analyzeRun} from '../../../../src/explain/analyze-run.js'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'
import {mergeArtifacts} from '../../../../src/ingest/merge-artifacts.js'
import {CUT_TASK, cutTranscript} from '../../../helpers/cut-transcript.js'

/** The truth rules of the diagnosis (docs/root-causes.md, "Truth rules"): each failed on the tool before them. */
describe('truth rules', () => {
  describe('a finding states only what a record holds', () => {
    it('reads a cancelled Player call as inferred and does not place the cancel scope inside GuardKit', () => {
      const error = "Cancelled: Cancelled via cancel scope 0a1b2c3d4e5f by <Task pending name='Task-12'>"
      const {task} = analyse([...playerFailsTurn(1, error), ...playerFailsTurn(2, error), complete('unrecoverable_stall', 2)])
      const cancelled = task.findings.filter((f) => /cancel/i.test(f.message))
      expect(cancelled.length).toBeGreaterThan(0)
      for (const f of cancelled) {
        expect(f.confidence).toBe('inferred')
        expect(f.message).not.toMatch(/inside GuardKit|not by the user|well before its SDK timeout/)
      }
    })

    it('does not say how long a Player without its implementation plan took, nor that it failed on turns whose records do not say so', () => {
      const error = `Implementation plan not found for ${TASK}. Expected at one of: ['/home/dev/proj/.claude/task-plans/${TASK}-implementation-plan.md']`
      const {task} = analyse([...playerFailsTurn(1, error), complete('unrecoverable_stall', 1)])
      const plan = task.findings.filter((f) => /implementation plan/i.test(f.message))
      expect(plan.length).toBeGreaterThan(0)
      for (const f of plan) expect(f.message).not.toMatch(/in a second|on every turn/)
    })

    it('does not say the Player\'s tests passed when it reported "0 tests (passing)"', () => {
      const {task} = analyse([...coachTestsFailTurn(1, {tests: 0, seconds: 0.6, via: 'subprocess', classification: 'infrastructure'}), ...coachTestsFailTurn(2, {tests: 0, seconds: 0.6, via: 'subprocess', classification: 'infrastructure'}), complete('unrecoverable_stall', 2)])
      expect(task.findings.map((f) => f.code)).not.toContain('ENV_PARITY_GAP')
      for (const f of task.findings) expect(f.message).not.toMatch(/tests passed|tests passing/)
    })

    it('says how many tests the Player reported passing when it did', () => {
      const {task} = analyse([...coachTestsFailTurn(1, {tests: 4, seconds: 0.6, via: 'subprocess', classification: 'infrastructure'}), complete('unrecoverable_stall', 1)])
      expect(task.findings.find((f) => f.code === 'ENV_PARITY_GAP')?.message).toMatch(/^On t1 the Player reported 4 tests passing, but the Coach's own run of them failed on infrastructure/)
    })

    it('labels an inferred category inferred, with its deduction', () => {
      const {task} = analyse([...coachTestsFailTurn(1, {tests: 0, seconds: 0.6, via: 'subprocess'}), ...coachTestsFailTurn(2, {tests: 0, seconds: 0.6, via: 'subprocess'}), complete('unrecoverable_stall', 2)])
      const primary = task.findings.find((f) => f.id === task.diagnosis?.primary.findingId)!
      expect(task.diagnosis).toMatchObject({primary: {category: 'test-environment'}, confidence: 'inferred'})
      expect(primary.deduction).toMatch(/fails within a few seconds/)
      expect(task.verdict.why).toMatch(/\[inferred\]/)
    })

    it('names a direct-mode session that ended without its report and without an error a budget failure, inferred, and a report missing with no such write what it says', () => {
      const direct = analyse([...directReportMissingTurn(1, {written: true}), complete('error', 1)]).task
      expect(direct.diagnosis).toMatchObject({primary: {category: 'agent-budget'}, confidence: 'inferred'})
      expect(direct.findings.find((f) => f.id === direct.diagnosis?.primary.findingId)?.deduction).toMatch(/SDK turn limit .* or finished without writing the report; the log does not say which/)
      expect(direct.verdict.why).toMatch(/\[inferred\]/)
      const plain = analyse([...directReportMissingTurn(1, {written: false}), complete('error', 1)]).task
      expect(plain.diagnosis).toMatchObject({primary: {category: 'agent-report'}, confidence: 'certain'})
    })
    it('does not say the Coach found no tests of the task when the same turn then ran the task\'s own test files', () => {
      const glob = `INFO:guardkit.orchestrator.quality_gates.coach_validator:No task-specific tests found for ${TASK}, skipping independent verification. Glob pattern tried: tests/**/test_task_abc_001*.py`
      const found = `INFO:guardkit.orchestrator.quality_gates.coach_validator:Found test files via completion_promises for ${TASK}: 1 file(s)`
      const ran = 'INFO:guardkit.orchestrator.quality_gates.coach_validator:Running independent tests via SDK (environment parity): pytest tests/users/test_users.py -v --tb=short'
      const rulesOf = (lines: string[]) => signalsOf(lines, builtinCatalogue()).classified.map((c) => c.rule.id)
      expect(rulesOf([glob, found, ran])).not.toContain('test-selection.no-task-tests')
      expect(rulesOf([glob, found, ran])).toContain('coach-tests.glob-missed-then-found')
      // without a run of named test files the glob's miss is still the test-selection reading
      expect(rulesOf([glob])).toContain('test-selection.no-task-tests')
    })
  })

  describe('a contributing cause needs its premise on record', () => {
    const install = 'WARNING:guardkit.orchestrator.environment_bootstrap:Incomplete project at /home/dev/proj/.guardkit/worktrees/FEAT-X/pyproject.toml (python): no dependency install available'
    /** One turn with the bootstrap's warning in the Player's part: the Coach ran its tests, or skipped them and the Player reported none. */
    const turnWith = (ranTests: boolean): string[] => {
      const lines = coachTestsFailTurn(1, {tests: ranTests ? 2 : 0, seconds: 0.4, via: 'subprocess'})
      const withInstall = [...lines.slice(0, 3), install, ...lines.slice(3)]
      return ranTests ? withInstall : withInstall.filter((l) => !/independent tests|Independent test/.test(l)).flatMap((l) => (/Quality gate evaluation/.test(l) ? [l, `INFO:guardkit.orchestrator.quality_gates.coach_validator:Independent test verification skipped for ${TASK} (tests not required for scaffolding tasks)`] : [l]))
    }
    const roleOf = (ranTests: boolean) => {
      const run = runOf(turnWith(ranTests), {ownTurns: true})
      const task = run.tasks.find((t) => t.taskId === TASK)!
      return taskSignals(run, task, builtinCatalogue()).classified.find((c) => c.rule.id === 'configuration.no-install-recipe')?.rule.role
    }

    it('does not count a dependency install that failed against a task none of whose turns ran tests', () => {
      expect(roleOf(false)).toBe('context')
    })

    it('counts it where the Coach ran its tests', () => {
      expect(roleOf(true)).toBe('contributing')
    })
  })

  describe('remediation depends on the run\'s own configuration', () => {
    it('never advises running the Coach\'s tests through the SDK when the log shows they already ran that way, and says it did not fix it', () => {
      const {task} = analyse([...coachTestsFailTurn(1, {tests: 2, seconds: 5.9, via: 'sdk', classification: 'infrastructure'}), ...coachTestsFailTurn(2, {tests: 2, seconds: 5.9, via: 'sdk', classification: 'infrastructure'}), complete('unrecoverable_stall', 2)])
      expect(task.diagnosis?.primary.category).toBe('test-environment')
      for (const d of task.verdict.doNow) expect(d).not.toMatch(/test_execution: sdk/)
      expect(task.verdict.doNow[0]).toMatch(/already ran through the SDK.*\(run\.log:\d+\), and that did not fix it/)
    })

    it('never advises a longer SDK timeout to a Player that failed at once (authentication), on every turn', () => {
      const err = 'Agent player received API error: authentication_failed'
      const {task} = analyse([...playerFailsTurn(1, err), ...playerFailsTurn(2, err), ...playerFailsTurn(3, err), complete('player_invocation_stall', 3)])
      for (const f of task.findings) expect(f.remediation, f.code).not.toMatch(/raise --sdk-timeout/i)
    })

    it('reads a port or a database file another process held as contention between tasks only as an inference; GuardKit\'s own parallel_contention as a fact', () => {
      const held = (turn: number) => coachTestsFailTurn(turn, {tests: 4, seconds: 2.6, via: 'subprocess', classification: 'code'})
        .map((l) => (l.includes('⚠ Feedback') ? "  ⚠ Feedback: - Independent test verification failed: OSError: [Errno 48] Address already in use" : l))
      const port = analyse([...held(1), ...held(2), complete('unrecoverable_stall', 2)]).task
      expect(port.diagnosis).toMatchObject({primary: {category: 'concurrency'}, confidence: 'inferred'})
      const contention = analyse([...coachTestsFailTurn(1, {tests: 4, seconds: 5.2, via: 'subprocess', classification: 'parallel_contention'}), ...coachTestsFailTurn(2, {tests: 4, seconds: 5.1, via: 'subprocess', classification: 'parallel_contention'}), complete('unrecoverable_stall', 2)]).task
      expect(contention.diagnosis).toMatchObject({primary: {category: 'concurrency'}, confidence: 'certain'})
    })

    it('says a Player "failed at once" only when the log dates its turns', () => {
      const error = 'Player failed: Unexpected error: widget service returned nothing'
      const turn = (n: number) => [
        `INFO:guardkit.orchestrator.autobuild:Executing turn ${n}/10`,
        `INFO:guardkit.orchestrator.progress:[2026-04-09T10:0${n}:00.000Z] Started turn ${n}: Player Implementation`,
        `INFO:guardkit.orchestrator.agent_invoker:Invoking Player via direct SDK for ${TASK} (turn ${n})`,
        `  ✗ [2026-04-09T10:0${n}:20.000Z] ${error}`,
        `INFO:guardkit.orchestrator.progress:[2026-04-09T10:0${n}:20.000Z] Completed turn ${n}: error - ${error}`,
        `INFO:guardkit.orchestrator.autobuild:Attempting state recovery for ${TASK} turn ${n} after Player failure: ${error}`,
        ...syntheticReportJudged(n),
        `INFO:guardkit.orchestrator.progress:[2026-04-09T10:0${n}:40.000Z] Completed turn ${n}: feedback - Feedback: - Not all acceptance criteria met:`,
        `INFO:guardkit.orchestrator.autobuild:Coach provided feedback on turn ${n}`,
      ]
      const dated = [...turn(1), ...turn(2), complete('unrecoverable_stall', 2)]
      const undated = dated.map((l) => l.replace(/\[\d{4}-\d\d-\d\dT[^\]]*\] /, ''))
      const advice = (lines: string[]) => analyse(lines).task.findings.find((f) => f.code === 'SYNTHETIC_REPORT_WITHOUT_PROMISES')?.remediation
      expect(advice(dated)).toMatch(/^Fix what made the Player fail .*; more time will not help a Player that failed at once;/)
      expect(advice(undated)).toMatch(/^Fix what made the Player fail/)
      expect(advice(undated)).not.toMatch(/failed at once/)
    })

    it('never calls a Player that worked for minutes and then left no report one that "failed at once"', () => {
      const report = (n: number) => `/home/dev/proj/.guardkit/worktrees/FEAT-1A2B/.guardkit/autobuild/${TASK}/player_turn_${n}.json`
      const turn = (n: number) => [
        `INFO:guardkit.orchestrator.autobuild:Executing turn ${n}/10`,
        `INFO:guardkit.orchestrator.progress:[2026-04-09T10:0${n}:00.000Z] Started turn ${n}: Player Implementation`,
        `INFO:guardkit.orchestrator.agent_invoker:Invoking Player via direct SDK for ${TASK} (turn ${n})`,
        `INFO:guardkit.orchestrator.agent_invoker:[${TASK}] Player invocation in progress... (240s elapsed)`,
        `INFO:guardkit.orchestrator.agent_invoker:[${TASK}] SDK completed: turns=31`,
        `  ⚠ [2026-04-09T10:0${n}:50.000Z] Player report missing - attempting state recovery`,
        `INFO:guardkit.orchestrator.progress:[2026-04-09T10:0${n}:50.000Z] Completed turn ${n}: error - Player failed: Player report not found: ${report(n)}`,
        `INFO:guardkit.orchestrator.autobuild:Attempting state recovery for ${TASK} turn ${n} after Player failure: Player report not found: ${report(n)}`,
        ...syntheticReportJudged(n),
        `INFO:guardkit.orchestrator.autobuild:Coach provided feedback on turn ${n}`,
      ]
      const {task} = analyse([...turn(1), ...turn(2), complete('unrecoverable_stall', 2)])
      for (const f of task.findings) expect(f.remediation, f.code).not.toMatch(/failed at once/)
      expect(task.findings.find((f) => f.code === 'SYNTHETIC_REPORT_WITHOUT_PROMISES')?.remediation).toMatch(/left no player_turn_N\.json where GuardKit reads it/)
    })
  })

  describe('a record that is not there is not guessed', () => {
    it('says a Player error that went with a cut in the capture is missing, and names no category for it', () => {
      const ingest = createLogIngest()
      ingest.startFile('cut.log')
      for (const l of cutTranscript({turns: 3})) ingest.push(l)
      const run = mergeArtifacts({runPath: 'cut.log', fromLogs: ingest.finish(), worktrees: [], fixture: null, issues: []})
      const task = analyzeRun(run).tasks.find((t) => t.task.taskId === CUT_TASK)!
      expect(task.diagnosis).toMatchObject({primary: {category: 'unknown'}, confidence: 'certain'})
      expect(task.diagnosis?.primary.summary).toMatch(/^unknown: the Player failed and its error is not in the log on t2, t3/)
      expect(task.findings.find((f) => f.id === task.diagnosis?.primary.findingId)?.message).toMatch(/the capture was cut at line \d+/)
    })
  })

  describe('data from another run is not used', () => {
    const withState = (task: TaskRun, turns: {turn: number; timestamp: string}[]): TaskRun => ({
      ...task,
      taskFile: {file: 'tasks/backlog/TASK-ABC-001.md', frontmatter: {id: TASK, autobuild_state: {turns}}, body: '', text: ''},
    })
    const logged = taskRun({
      taskId: TASK,
      outcome: fact('max_turns_exceeded'),
      turnCount: fact(3),
      turns: [1, 2, 3].map((n) => turn(n, {endedAt: `2026-04-20T07:0${n * 2}:00.000Z`})),
    })

    it('ignores a task file\'s autobuild_state that records more turns than the run had (another run of the task), with an ingest note', () => {
      const issues: IngestIssue[] = []
      const more = checkAutobuildState(withState(logged, [1, 2, 3, 4].map((n) => ({turn: n, timestamp: `2026-04-20T08:0${n}:00`}))), issues)
      expect(more.taskFile?.frontmatter['autobuild_state']).toBeUndefined()
      expect(issues).toEqual([expect.objectContaining({file: 'tasks/backlog/TASK-ABC-001.md', code: 'conflict', message: expect.stringMatching(/describes another run of the task \(it records turn 4, this run ended after turn 3\)/)})])
    })

    it('ignores it when its times between turns differ from the log\'s', () => {
      const issues: IngestIssue[] = []
      // the log's turns ended 2 min apart; these were saved 40 min apart (times compared as differences: the file's clock is local)
      const slow = checkAutobuildState(withState(logged, [{turn: 1, timestamp: '2026-04-20T08:02:00'}, {turn: 2, timestamp: '2026-04-20T08:42:00'}]), issues)
      expect(slow.taskFile?.frontmatter['autobuild_state']).toBeUndefined()
      expect(turnTimes(slow).get(2)).toEqual({start: null, end: Date.UTC(2026, 3, 20, 7, 4, 0)})
      expect(issues).toHaveLength(1)
    })

    it('keeps a state that fits the run (same turns, the same time between them)', () => {
      const issues: IngestIssue[] = []
      const same = checkAutobuildState(withState(logged, [{turn: 1, timestamp: '2026-04-20T08:02:00'}, {turn: 2, timestamp: '2026-04-20T08:04:01'}]), issues)
      expect(same.taskFile?.frontmatter['autobuild_state']).toBeDefined()
      expect(issues).toEqual([])
    })
  })

  describe('the criteria list comes from the criteria GuardKit printed', () => {
    const CV = 'guardkit.orchestrator.quality_gates.coach_validator'
    it('never from a "missing" list that holds only the unmet criteria (it would be numbered AC-001… wrongly)', () => {
      const run = runOf([
        `INFO:${CV}:Starting Coach validation for ${TASK} turn 1`,
        `INFO:${CV}:Requirements not met for ${TASK}: missing ['Passwords are hashed', 'Sessions expire']`,
        'INFO:guardkit.orchestrator.autobuild:Criteria Progress (Turn 1): 1/3 verified (33%)',
      ])
      expect(run.tasks[0]!.criteria).toBeNull()
    })

    it('from a "missing" list that names every criterion the Coach counted (a 0/N turn)', () => {
      const run = runOf([
        `INFO:${CV}:Starting Coach validation for ${TASK} turn 1`,
        `INFO:${CV}:Requirements not met for ${TASK}: missing ['Users can log in', 'Passwords are hashed']`,
        'INFO:guardkit.orchestrator.autobuild:Criteria Progress (Turn 1): 0/2 verified (0%)',
      ])
      expect(run.tasks[0]!.criteria).toMatchObject({texts: ['Users can log in', 'Passwords are hashed'], source: 'missing-list'})
    })
  })

  describe('on an approved task nothing is critical or high unless the approval itself was wrong', () => {
    const {task} = analyse([...coachTestsFailTurn(1, {tests: 2, seconds: 0.6, via: 'subprocess', classification: 'infrastructure'}), ...approvedTurn(2), complete('approved', 2)])

    it('has no diagnosis, no ✗, and no critical or high finding', () => {
      expect(task.diagnosis).toBeNull()
      expect(task.verdict.ok).toBe(true)
      expect(task.findings.filter((f) => f.severity === 'critical' || f.severity === 'high')).toEqual([])
    })

    it('says the turns before the approval were wasted, not failed', () => {
      expect(task.verdict.why).toMatch(/^the Coach approved turn 2; turn 1 was wasted: /)
      expect(task.verdict.why).not.toMatch(/task (?:run )?failed|failed at turn|failure/)
      for (const f of task.findings.filter((x) => x.code === 'LOG_SIGNAL')) expect(f.message).toMatch(/^Turn 1 was wasted \(the task was approved on turn 2\)/)
    })

    it('gives each wasted turn its own recorded reason, not one turn\'s reason for all', () => {
      const {task} = analyse([...playerFailsTurn(1, 'Agent player received API error: rate_limit_error'), ...sdkLimitTurn(2, {limit: 50, used: 30}), ...approvedTurn(3), complete('approved', 3)])
      expect(task.verdict.why).toMatch(/^the Coach approved turn 3; turns 1, 2 were wasted \(turn 1: [^;]+; turn 2: [^)]*tests=None/)
    })

    it('takes the approval turn from the recorded turn count when the capture lost the approving turn\'s records', () => {
      // the log holds turn 1's failure and the completion "approved after 2 turns", nothing of turn 2
      const {task} = analyse([...playerFailsTurn(1, 'Agent player received API error: rate_limit_error'), complete('approved', 2)])
      const signals = task.findings.filter((x) => x.code === 'LOG_SIGNAL')
      expect(signals.length).toBeGreaterThan(0)
      for (const f of signals) expect(f.message).toMatch(/^Turn 1 was wasted \(the task was approved on turn 2\)/)
      expect(task.verdict.why).toMatch(/^the Coach approved turn 2; turn 1 was wasted: /)
    })
  })

  it('gives one remediation bullet per distinct action (two findings that both say test_execution: sdk make one bullet)', () => {
    const {task} = analyse([...coachTestsFailTurn(1, {tests: 2, seconds: 0.6, via: 'subprocess', classification: 'infrastructure'}), ...coachTestsFailTurn(2, {tests: 2, seconds: 0.6, via: 'subprocess', classification: 'infrastructure'}), complete('unrecoverable_stall', 2)])
    expect(task.findings.filter((f) => /test_execution: sdk/.test(f.remediation)).length).toBeGreaterThan(1)
    expect(task.verdict.doNow.filter((d) => /test_execution: sdk/.test(d))).toHaveLength(1)
  })
})
