import {describe, expect, it} from 'vitest'
import {analyzeRun} from '../../../../src/explain/analyze-run.js'
import type {TaskAnalysis} from '../../../../src/explain/analysis.js'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'
import {mergeArtifacts} from '../../../../src/ingest/merge-artifacts.js'
import {AB, CV, PR, AI} from '../diagnosis/authored-runs.js'

/**
 * Authored logs of a task whose Player failed and whose report GuardKit rebuilt from git (state recovery,
 * docs/guardkit-logic.md §5.4), in the shapes GuardKit logs them; names, paths and numbers are made up.
 */
const T = 'TASK-SYN-001'
const CRITERIA = ['`src/users/crud.py` created', 'All functions are async', 'mypy strict mode passes']

function analysed(lines: readonly string[]): TaskAnalysis {
  const ingest = createLogIngest()
  ingest.startFile('syn.log')
  for (const l of lines) ingest.push(l)
  const run = mergeArtifacts({runPath: 'syn.log', fromLogs: ingest.finish(), worktrees: [], fixture: null, issues: []})
  return analyzeRun(run, {}).tasks.find((t) => t.task.taskId === T)!
}

/** Turn 1: the Player fails, state recovery builds the report, the Coach dumps its 0/3 verification. */
function recoveredTurn(o: {building: string; promises: string; strategy: string}): string[] {
  return [
    `INFO:${PR}:Started turn 1: Player Implementation`,
    `INFO:${AI}:[${T}] Mode: direct (explicit frontmatter override)`,
    `INFO:${AI}:Invoking Player via direct SDK for ${T} (turn 1)`,
    `ERROR:${AI}:[${T}] SDK API error in stream: unknown`,
    '  ✗ Player failed: SDK agent error: unknown',
    `INFO:${PR}:Completed turn 1: error - Player failed: SDK agent error: unknown`,
    `INFO:${AB}:Attempting state recovery for ${T} turn 1 after Player failure: SDK agent error: unknown`,
    `INFO:${AB}:State recovery succeeded via git_test_detection: 4 files, 2 tests (failing)`,
    `WARNING:${AB}:[Turn 1] Building synthetic report: ${o.building}`,
    `INFO:${AB}:State recovery successful for ${T} turn 1`,
    `WARNING:${AB}:[Turn 1] Passing synthetic report to Coach for ${T}. Promise matching will fail — falling through to text matching.`,
    `INFO:${PR}:Started turn 1: Coach Validation`,
    `INFO:${CV}:Starting Coach validation for ${T} turn 1`,
    `INFO:${CV}:Synthetic report detected — using file-existence verification`,
    `WARNING:${CV}:Criteria verification 0/3 - diagnostic dump:`,
    ...CRITERIA.map((c) => `WARNING:${CV}:  AC text: ${c}`),
    `WARNING:${CV}:  completion_promises: ${o.promises}`,
    `WARNING:${CV}:  matching_strategy: ${o.strategy}`,
    `WARNING:${CV}:  _synthetic: True`,
    `INFO:${CV}:Requirements not met for ${T}: missing [${CRITERIA.map((c) => `'${c}'`).join(', ')}]`,
    '  ⚠ Feedback: - Not all acceptance criteria met:',
    `INFO:${PR}:Completed turn 1: feedback - Feedback: - Not all acceptance criteria met:`,
    `INFO:${AB}:Criteria Progress (Turn 1): 0/3 verified (0%)`,
  ]
}

function run(turn: readonly string[]): string[] {
  return [
    `INFO:${AB}:Starting orchestration for ${T} (resume=False)`,
    `INFO:${AB}:Executing turn 1/1`,
    ...turn,
    `INFO:${AB}:Orchestration complete: ${T}, decision=max_turns_exceeded, turns=1`,
  ]
}

const GIT_PROMISES = `[${CRITERIA.map((c, i) => `{'criterion_id': 'AC-00${i + 1}', 'criterion_text': '${c}', 'status': 'incomplete', 'evidence': 'No git-analysis evidence for this criterion', 'evidence_type': 'git_analysis'}`).join(', ')}]`

describe('a report GuardKit rebuilt from git after the Player failed', () => {
  it('is not said to have no promises when GuardKit logged that it generated them (the `Promise matching will fail` line notwithstanding)', () => {
    const task = analysed(run(recoveredTurn({
      building: '2 files created, 2 files modified, 2 tests. Generating git-analysis promises for feature task.',
      promises: GIT_PROMISES,
      strategy: 'promises+hybrid (synthetic)',
    })))
    const messages = task.findings.map((f) => f.message)
    expect(task.findings.map((f) => f.code)).not.toContain('SYNTHETIC_REPORT_WITHOUT_PROMISES')
    for (const m of messages) expect(m).not.toMatch(/has no completion promises|no completion_promises|cannot verify any criterion|could be verified from it whatever/)
    const synthetic = task.findings.find((f) => (f.detail as {ruleId?: string} | undefined)?.ruleId?.startsWith('agent-report.synthetic-report'))
    expect(synthetic?.message).toMatch(/with completion promises GuardKit generated for it/)
    // the line that says which kind of report it was is the one quoted
    expect(synthetic?.evidence[0]?.text).toMatch(/Generating git-analysis promises/)
  })

  it('is said to have none when the Coach dumped an empty list, though GuardKit set out to generate them (no changed file)', () => {
    const task = analysed(run(recoveredTurn({
      building: '0 files created, 0 files modified, 0 tests. Generating git-analysis promises for feature task.',
      promises: '(empty)',
      strategy: 'synthetic (no promises)',
    })))
    const f = task.findings.find((x) => x.code === 'SYNTHETIC_REPORT_WITHOUT_PROMISES')
    expect(f?.turns).toEqual([1])
  })

  it('names no fix the run already had: a run dated after the criteria-count guard landed (docs/logic-changes.md)', () => {
    // progress lines with timestamps date the run (2026-03, after 71a5fb57 of 2026-02-19)
    const dated = recoveredTurn({
      building: '0 files created, 0 files modified, 0 tests. Generating git-analysis promises for feature task.',
      promises: '(empty)',
      strategy: 'synthetic (no promises)',
    }).map((l) => l.replace(`INFO:${PR}:`, `INFO:${PR}:[2026-03-09T14:19:20.055Z] `))
    const task = analysed(run(dated))
    const direct = task.findings.find((x) => x.code === 'DIRECT_MODE_WITH_CRITERIA')
    expect(direct).toBeDefined()
    expect(direct!.fixedIn).toBeNull()
    expect(task.verdict.fixedIn.join(' ')).not.toMatch(/acCountGuard/)
  })

  it('on a run older than the modelled window, says how the Player was invoked and names no February 2026 fix or setting', () => {
    const older = [
      `INFO:${AB}:AutoBuildOrchestrator initialized: repo=/home/dev/proj, max_turns=5, resume=False, enable_pre_loop=True, development_mode=tdd, sdk_timeout=300s`,
      ...recoveredTurn({building: '1 files created, 0 files modified, 0 tests.', promises: '(empty)', strategy: 'synthetic (no promises)'}).filter((l) => !/Mode: direct/.test(l)),
    ]
    const task = analysed(run(older))
    const direct = task.findings.find((x) => x.code === 'DIRECT_MODE_WITH_CRITERIA')
    expect(direct?.message).toMatch(/its Player was invoked via the direct SDK \(the log says so\); this run is older than the modelled window/)
    expect(direct!.fixedIn).toBeNull()
    expect(direct!.remediation).not.toMatch(/implementation_mode/)
    expect(task.verdict.doNow.join(' ')).not.toMatch(/implementation_mode: task-work/)
  })

  it('is not said to have verified nothing on a turn the Coach approved by text matching', () => {
    const task = analysed([
      `INFO:${AB}:Starting orchestration for ${T} (resume=False)`,
      `INFO:${AB}:Executing turn 1/1`,
      `INFO:${PR}:Started turn 1: Player Implementation`,
      `INFO:${AI}:Invoking Player via direct SDK for ${T} (turn 1)`,
      `INFO:${AI}:SDK did not write player_turn_1.json for ${T}, creating synthetic report from git detection`,
      `WARNING:${AB}:[Turn 1] Passing synthetic report to Coach for ${T}. Promise matching will fail — falling through to text matching.`,
      `INFO:${PR}:Started turn 1: Coach Validation`,
      `INFO:${CV}:Starting Coach validation for ${T} turn 1`,
      `INFO:${CV}:Synthetic report detected — using file-existence verification`,
      `INFO:${CV}:Synthetic report has no promises but has 3 requirements_addressed — using text matching`,
      `INFO:${CV}:Coach approved ${T} turn 1`,
      '  ✓ Coach approved - ready for human review',
      `INFO:${PR}:Completed turn 1: success - Coach approved - ready for human review`,
      `INFO:${AB}:Criteria Progress (Turn 1): 3/3 verified (100%)`,
      `INFO:${AB}:Criteria: 3 verified, 0 rejected, 0 pending`,
      `INFO:${AB}:Coach approved on turn 1`,
      `INFO:${AB}:Orchestration complete: ${T}, decision=approved, turns=1`,
    ])
    expect(task.findings.map((f) => f.code)).not.toContain('SYNTHETIC_REPORT_WITHOUT_PROMISES')
    for (const f of task.findings) expect(f.message).not.toMatch(/no promises, no requirements|could be verified from it whatever/)
  })
})

describe('a timeout of the pre-loop design phase', () => {
  it('is not told as the Player running out of its SDK time, and advises no Player work to keep', () => {
    const task = analysed([
      `INFO:${AB}:Starting orchestration for ${T} (resume=False)`,
      `INFO:${AB}:Phase 2 (Pre-Loop): Executing quality gates for ${T}`,
      `INFO:guardkit.orchestrator.quality_gates.task_work_interface:Executing design phase for ${T} in /home/dev/proj/.guardkit/worktrees/FEAT-X`,
      'ERROR:guardkit.orchestrator.quality_gates.task_work_interface:SDK timeout after 1800s',
      `ERROR:${AB}:Orchestration failed for ${T}: Design phase design failed: SDK timeout after 1800s`,
    ])
    const rules = task.findings.map((f) => (f.detail as {ruleId?: string} | undefined)?.ruleId).filter((r) => r !== undefined)
    expect(rules).not.toContain('agent-budget.sdk-timeout')
    for (const f of task.findings) {
      expect(f.message).not.toMatch(/The Player ran out of its SDK time/)
      expect(f.remediation).not.toMatch(/the worktree holds the Player's work/)
    }
    expect(task.diagnosis?.primary.summary).toMatch(/design phase/)
  })
})
