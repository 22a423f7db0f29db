import {describe, expect, it} from 'vitest'
import type {LogicFlags} from '../../../../src/logic/changes.js'
import {validateRequirements} from '../../../../src/logic/coach/requirements/index.js'
import {collectingSink} from '../../../../src/logic/log-sink.js'
import {
  buildStateRecoveryReport,
  createSyntheticDirectModeReport,
  directModeTaskFacts,
  runDirectModeTurn,
  writeDirectModeResults,
  writePlayerReportForDirectMode,
  type DirectModeFlow,
} from '../../../../src/logic/pipeline/index.js'
import {asRun, FIXED, LEGACY, ROOT, withFlags, worktree} from './helpers.js'

/** Seed 001: TASK-RK01-003, a scaffolding task with 4 criteria assigned to direct mode. */
const TASK = 'TASK-RK01-003'
const AC = [
  'Config file exists at `installer/global/config/graphiti.yaml`',
  'Template has `group_ids` section',
  'Docs updated in docs/graphiti.md',
  'README links to the config',
]
const GIT = {created: ['installer/global/config/graphiti.yaml'], modified: ['docs/graphiti.md']}

function turn(flags: LogicFlags, taskType: string | null = 'scaffolding'): DirectModeFlow {
  return runDirectModeTurn({
    taskId: TASK, turn: 1, worktreeRoot: ROOT, sdk: {kind: 'no-report'}, gitChanges: GIT, taskType,
    criteria: {taskLoader: AC, frontmatter: AC}, timestamp: 't',
  }, flags)
}

/** What the Coach's requirements step makes of the turn (docs/guardkit-logic.md §7.1), reading the files the turn wrote. */
function coachSees(flow: DirectModeFlow, flags: LogicFlags) {
  const view = worktree({[`.guardkit/autobuild/${TASK}/player_turn_1.json`]: JSON.stringify(flow.playerReport)})
  const result = validateRequirements({acceptance_criteria: AC}, flow.taskWorkResults, 1, {taskId: TASK, worktree: view, flags, log: collectingSink()})
  if (!result.ok) throw new Error(result.exception)
  return {strategy: result.explanation.strategy, met: result.validation.criteria_met, total: result.validation.criteria_total}
}

describe('seed 001: direct mode without a player report (docs/guardkit-logic.md §5.1, D13-D16)', () => {
  it('legacy fails the turn: the results file carries an error, so the Coach never gets to the criteria', () => {
    const flow = turn(LEGACY)
    expect([flow.path, flow.success, flow.needsStateRecovery]).toEqual(['failure', false, true])
    expect(flow.error).toBe(`Player report not found: ${ROOT}/.guardkit/autobuild/${TASK}/player_turn_1.json`)
    expect(flow.taskWorkResults).toEqual(expect.objectContaining({success: false, error: flow.error, error_type: 'DirectModeError'}))
    expect((flow.taskWorkResults.quality_gates as Record<string, unknown>).all_passed).toBe(false)
    expect('_synthetic' in flow.taskWorkResults || 'completion_promises' in flow.taskWorkResults).toBe(false)
  })

  it('legacy state recovery does build file-existence promises, but only in memory', () => {
    const flow = turn(LEGACY)
    const recovered = buildStateRecoveryReport({
      turn: 1, filesModified: GIT.modified, filesCreated: GIT.created, testsWritten: [], testCount: 0, testsPassed: false,
      testOutputSummary: null, detectionMethod: 'git_only', gitInsertions: 0, gitDeletions: 0,
    }, flow.error, AC, 'scaffolding', LEGACY, {timestamp: 't'})
    expect((recovered.report.completion_promises as unknown[]).length).toBe(4)
    expect('completion_promises' in flow.taskWorkResults).toBe(false)
  })

  it('as it ran (c5a83a15): a synthetic report without _synthetic or promises, so the Coach text-matches nothing: 0/4', () => {
    const flags = asRun('c5a83a15')
    const flow = turn(flags)
    expect(flow.path).toBe('synthetic')
    expect('_synthetic' in flow.taskWorkResults).toBe(false)
    // Seed 001's dump: "matching_strategy: text", "_synthetic: False", 0/4.
    expect(coachSees(flow, flags)).toEqual({strategy: 'text', met: 0, total: 4})
  })

  it('R1 without R2: _synthetic reaches the Coach but no promises do, still 0/4 (seed 001 Finding 3)', () => {
    const flags = withFlags(asRun('c5a83a15'), ['directSyntheticFlag', 'directReportKeepsSynthetic'])
    const flow = turn(flags)
    expect(flow.taskWorkResults._synthetic).toBe(true)
    expect(coachSees(flow, flags)).toEqual({strategy: 'synthetic-none', met: 0, total: 4})
    expect(flow.events).toContainEqual(expect.objectContaining({field: 'completion_promises', kind: 'skipped', flag: 'directSyntheticPromises'}))
  })

  it('at 71a5fb57 the promises arrive but _synthetic is lost on the write→reload round trip (D15)', () => {
    const flags = asRun('71a5fb57')
    const flow = turn(flags)
    expect('_synthetic' in flow.taskWorkResults).toBe(false)
    expect(flow.taskWorkResults.completion_promises).toHaveLength(4)
    expect(flow.events).toContainEqual(expect.objectContaining({kind: 'dropped', field: '_synthetic', flag: 'directReportKeepsSynthetic'}))
  })

  it('fixed: a scaffolding task is verified by its file-existence promises (2 of the 4 name changed files)', () => {
    const flow = turn(FIXED)
    expect(flow.taskWorkResults._synthetic).toBe(true)
    expect((flow.taskWorkResults.completion_promises as {status: string}[]).map((p) => p.status)).toEqual(['complete', 'incomplete', 'complete', 'incomplete'])
    expect(coachSees(flow, FIXED)).toEqual({strategy: 'synthetic-promises', met: 2, total: 4})
  })

  it('fixed: any other task type still gets 0/N, the "R1 without R2" outcome', () => {
    const flow = turn(FIXED, 'feature')
    expect(flow.taskWorkResults._synthetic).toBe(true)
    expect(coachSees(flow, FIXED)).toEqual({strategy: 'synthetic-none', met: 0, total: 4})
  })

  it('before DMCP-004 the synthetic promises use the frontmatter criteria only', () => {
    const flow = runDirectModeTurn({
      taskId: TASK, turn: 1, worktreeRoot: ROOT, sdk: {kind: 'no-report'}, gitChanges: GIT, taskType: 'scaffolding',
      criteria: {taskLoader: AC, frontmatter: []}, timestamp: 't',
    }, asRun('71a5fb57'))
    expect(flow.criteriaSource).toBe('frontmatter')
    expect('completion_promises' in flow.taskWorkResults).toBe(false)
  })
})

describe('the task facts direct mode reads (docs/guardkit-logic.md §5.1, §9.3)', () => {
  const file = '---\nid: TASK-RK01-003\ntask_type: scaffolding\ncomplexity: 3\n---\n# Create Graphiti configuration template\n\n## Acceptance Criteria\n\n- [ ] ' +
    AC.join('\n- [ ] ') + '\n\n## Notes\n- not a criterion\n'

  it('takes task_type from the frontmatter and criteria from the body only through TaskLoader', () => {
    const facts = directModeTaskFacts(worktree({'tasks/backlog/rk01/TASK-RK01-003-graphiti-config.md': file}), TASK, FIXED)
    expect(facts).toEqual({taskType: 'scaffolding', criteria: {taskLoader: AC, frontmatter: null}, taskFile: 'tasks/backlog/rk01/TASK-RK01-003-graphiti-config.md'})
  })

  it('so body criteria give promises only from DMCP-004 on', () => {
    const view = worktree({'tasks/backlog/TASK-RK01-003.md': file})
    const run = (flags: LogicFlags) => {
      const facts = directModeTaskFacts(view, TASK, flags)
      return runDirectModeTurn({taskId: TASK, turn: 1, worktreeRoot: ROOT, sdk: {kind: 'no-report'}, gitChanges: GIT, taskType: facts.taskType, criteria: facts.criteria, timestamp: 't'}, flags)
    }
    expect(run(FIXED).taskWorkResults.completion_promises).toHaveLength(4)
    expect('completion_promises' in run(withFlags(FIXED, [], ['directTaskLoaderCriteria'])).taskWorkResults).toBe(false)
  })

  it('finds no facts without a task file', () => {
    expect(directModeTaskFacts(worktree(), TASK, FIXED)).toEqual({taskType: null, criteria: {taskLoader: null, frontmatter: null}, taskFile: null})
  })
})

describe('direct mode with a report, and the direct-mode writers (docs/guardkit-logic.md §5.1, §5.3)', () => {
  const report = {
    task_id: TASK, turn: 1, files_modified: ['b.py', 'b.py'], files_created: ['a.py'], tests_written: ['tests/test_a.py'], tests_run: true,
    tests_passed: true, implementation_notes: 'done', concerns: [], requirements_addressed: ['Config file exists'], requirements_remaining: [],
  }

  it('takes a valid agent report down the success path; the results dedupe the lists, the report does not', () => {
    const flow = runDirectModeTurn({taskId: TASK, turn: 1, worktreeRoot: ROOT, sdk: {kind: 'report', report: JSON.stringify(report)}, gitChanges: GIT, taskType: null, criteria: {taskLoader: AC, frontmatter: AC}, timestamp: 't'}, FIXED)
    expect(flow.path).toBe('agent-report')
    expect(flow.taskWorkResults.files_modified).toEqual(['b.py'])
    expect(flow.playerReport.files_modified).toEqual(['b.py', 'b.py'])
    // tests_passed_count falls back to the number of tests written when the report passed.
    expect((flow.taskWorkResults.quality_gates as Record<string, unknown>).tests_passed).toBe(1)
    expect(flow.taskWorkResults.requirements_met).toEqual(['Config file exists'])
  })

  it('treats a report missing a schema key like a missing report', () => {
    const {implementation_notes: _dropped, ...partial} = report
    const flow = runDirectModeTurn({taskId: TASK, turn: 1, worktreeRoot: ROOT, sdk: {kind: 'report', report: partial}, gitChanges: GIT, taskType: 'scaffolding', criteria: {taskLoader: AC, frontmatter: AC}, timestamp: 't'}, LEGACY)
    expect(flow.path).toBe('failure')
  })

  it('failure results without an error message carry no error keys', () => {
    const results = writeDirectModeResults('T', {}, {success: false}, FIXED, 't')
    expect(results.summary).toBe('Direct mode implementation failed')
    expect('error' in results).toBe(false)
  })

  it('keeps _synthetic in the player report only from DMCP-003 on', () => {
    const synthetic = createSyntheticDirectModeReport({taskId: 'T', turn: 1, gitChanges: null}, FIXED)
    expect(writePlayerReportForDirectMode('T', 1, synthetic, {success: true}, FIXED)._synthetic).toBe(true)
    expect('_synthetic' in writePlayerReportForDirectMode('T', 1, synthetic, {success: true}, withFlags(FIXED, [], ['directReportKeepsSynthetic']))).toBe(false)
  })
})
