import {describe, expect, it} from 'vitest'
import {collectingSink} from '../../../../src/logic/log-sink.js'
import {
  createPlayerReportFromTaskWork,
  runTaskWorkStream,
  runTaskWorkTurn,
  writeTaskWorkResults,
  type PlayerReportFromTaskWorkInput,
  type SdkMessage,
} from '../../../../src/logic/pipeline/index.js'
import type {LogicFlags} from '../../../../src/logic/changes.js'
import {asRun, FIXED, LEGACY, worktree} from './helpers.js'

const INVOKER = 'guardkit.orchestrator.agent_invoker'

/**
 * Seed 000 (FEAT-AC1A / TASK-SFT-001 run 2): the agent wrote files under a key the parser did not
 * read, wrote `**Files Created:**` markdown, and wrote its own player_turn_1.json with promises.
 */
const AGENT_PROMISES = [
  {criterion_id: 'AC-001', criterion_text: 'tests/seam/ directory exists with __init__.py', status: 'complete', evidence: 'Created tests/seam/__init__.py', test_file: null, implementation_files: ['tests/seam/__init__.py']},
  {criterion_id: 'AC-002', criterion_text: 'tests/seam/conftest.py provides shared fixtures', status: 'complete', evidence: 'Created conftest.py', test_file: null, implementation_files: ['tests/seam/conftest.py']},
]
const AGENT_REPORT = {
  task_id: 'TASK-SFT-001', turn: 1, files_created: ['tests/seam/__init__.py', 'tests/seam/conftest.py'],
  requirements_addressed: ['tests/seam/ directory exists with __init__.py', 'tests/seam/conftest.py provides shared fixtures'],
  requirements_remaining: [], completion_promises: AGENT_PROMISES,
}
const STREAM: SdkMessage[] = [{type: 'assistant', blocks: [
  {type: 'tool_use', name: 'Write', input: {path: '/Users/u/wt/tests/seam/__init__.py', content: ''}},
  {type: 'tool_use', name: 'Write', input: {path: '/Users/u/wt/tests/seam/conftest.py', content: ''}},
  {type: 'text', text: '**Files Created:** tests/seam/__init__.py\n**Modified:** pyproject.toml\nQuality gates: PASSED'},
]}]

function seed000Turn(flags: LogicFlags) {
  const sink = collectingSink()
  const stream = runTaskWorkStream('TASK-SFT-001', STREAM, flags, sink)
  const written = writeTaskWorkResults('TASK-SFT-001', stream.output as Record<string, unknown>, flags, {timestamp: 't', sink})
  const report = createPlayerReportFromTaskWork({
    taskId: 'TASK-SFT-001', turn: 1, taskWorkResults: written.results, taskWorkOutput: stream.output as Record<string, unknown>,
    gitChanges: {modified: ['pyproject.toml'], created: ['tests/seam/__init__.py', 'tests/seam/conftest.py']},
    agentReport: AGENT_REPORT, worktree: worktree(),
  }, flags, sink)
  if (!report.ok) throw new Error(report.exception)
  return {stream, written, report, sink}
}

describe("seed 000: the agent's promises on their way to the Coach (docs/guardkit-logic.md §4.4, §10)", () => {
  it('legacy loses every file the agent wrote and keeps "**" (Bug 1, Fix 4)', () => {
    const {stream, written, report} = seed000Turn(LEGACY)
    expect(stream.events.filter((e) => e.kind === 'dropped').map((e) => e.flag)).toEqual(['trackToolKeys', 'trackToolKeys'])
    expect(written.results.files_created).toEqual(['**'])
    // The parser's lists replace the git-detected ones: the report carries "**" and no real file.
    expect(report.playerReport.files_created).toEqual(['**'])
    expect(report.playerReport.files_modified).toEqual(['**'])
  })

  it('legacy overwrites the agent-written report: no promises, no requirements (Bug 2)', () => {
    const {report} = seed000Turn(LEGACY)
    expect('completion_promises' in report.playerReport).toBe(false)
    expect(report.playerReport.requirements_addressed).toEqual([])
    expect(report.playerReport.implementation_notes).toBe('Implementation via task-work delegation')
    const overwritten = report.events.filter((e) => e.kind === 'overwritten')
    expect(overwritten.map((e) => [e.field, e.flag])).toEqual([
      ['completion_promises', 'recoverAgentPromises'],
      ['requirements_addressed', 'recoverAgentPromises'],
    ])
  })

  it('legacy never updates task_work_results.json, which the Coach reads first (Bug 3)', () => {
    const {written, report} = seed000Turn(LEGACY)
    expect(report.taskWorkResultsAfter).toBe(written.results)
    expect('completion_promises' in (report.taskWorkResultsAfter as object)).toBe(false)
  })

  it('fixed recovers the promises and requirements, logs it, and writes them back', () => {
    const {report, sink} = seed000Turn(FIXED)
    expect(report.playerReport.completion_promises).toEqual(AGENT_PROMISES)
    expect(report.playerReport.requirements_addressed).toEqual(AGENT_REPORT.requirements_addressed)
    const after = report.taskWorkResultsAfter as Record<string, unknown>
    expect(after.completion_promises).toEqual(AGENT_PROMISES)
    expect(report.taskWorkResultsUpdated).toBe(true)
    const messages = sink.records.filter((r) => r.logger === INVOKER).map((r) => r.message)
    // The log texts of D2, D9 and D11 (docs/guardkit-logic.md §2 S000), as in the captured logs.
    expect(messages).toEqual([
      "[TASK-SFT-001] ToolUseBlock Write input keys: ['path', 'content']",
      "[TASK-SFT-001] ToolUseBlock Write input keys: ['path', 'content']",
      'Recovered 2 completion_promises from agent-written player report for TASK-SFT-001',
      'Recovered 2 requirements_addressed from agent-written player report for TASK-SFT-001',
      'Updated task_work_results.json with enriched data for TASK-SFT-001',
    ])
  })

  it('fixed keeps no "**": the strict pattern never captures it, and both path forms sit side by side', () => {
    const {report} = seed000Turn(FIXED)
    const created = report.playerReport.files_created as string[]
    expect(created).not.toContain('**')
    expect(created).toEqual(['/Users/u/wt/tests/seam/__init__.py', '/Users/u/wt/tests/seam/conftest.py', 'tests/seam/__init__.py', 'tests/seam/conftest.py'])
    expect((report.taskWorkResultsAfter as Record<string, unknown>).files_created).toEqual(created)
  })

  it('as run at 723e5f4e (Fix 1-5, parser still overriding): the git filter removes "**" but nothing re-adds it', () => {
    const {report} = seed000Turn(asRun('723e5f4e'))
    // Fix 1 makes the parser see the Write paths, which then replace the git lists (D6 still legacy).
    expect(report.playerReport.files_created).toEqual(['**', '/Users/u/wt/tests/seam/__init__.py', '/Users/u/wt/tests/seam/conftest.py'])
    expect(report.playerReport.completion_promises).toEqual(AGENT_PROMISES)
  })
})

function fix5Input(content: string, files: Record<string, string | null> = {}): PlayerReportFromTaskWorkInput {
  return {
    taskId: 'TASK-X', turn: 1,
    taskWorkResults: {task_id: 'TASK-X', files_modified: [], files_created: [], tests_written: [], quality_gates: {tests_passed: 0, all_passed: true}},
    taskWorkOutput: null, gitChanges: {modified: [], created: ['src/config.py']}, agentReport: null,
    worktree: worktree({'tasks/in_progress/TASK-X-config.md': content, ...files}),
  }
}

describe('Fix 5: file-existence promises from the task file (docs/guardkit-logic.md §2 S000 Fix 5, §4.4, D10)', () => {
  const body = '---\nid: TASK-X\ntask_type: feature\n---\n# T\n\n## Acceptance Criteria\n\n- [ ] `src/config.py` exists\n- [ ] `docs/x.md` written\n'
  const front = '---\nid: TASK-X\nacceptance_criteria:\n  - "`src/config.py` exists"\n  - "`docs/x.md` written"\n---\n# T\n'

  it('criteria only in the task body get no promises, and the trace says why', () => {
    const result = createPlayerReportFromTaskWork(fix5Input(body), FIXED)
    if (!result.ok) throw new Error(result.exception)
    expect('completion_promises' in result.playerReport).toBe(false)
    expect(result.events).toContainEqual(expect.objectContaining({kind: 'skipped', field: 'completion_promises', values: ['tasks/in_progress/TASK-X-config.md']}))
  })

  it('frontmatter criteria give shared-status promises in fixed: list match complete, disk only partial', () => {
    const sink = collectingSink()
    const result = createPlayerReportFromTaskWork(fix5Input(front, {'docs/x.md': null}), FIXED, sink)
    if (!result.ok) throw new Error(result.exception)
    expect(result.playerReport.completion_promises).toEqual([
      {criterion_id: 'AC-001', criterion_text: '`src/config.py` exists', status: 'complete', evidence: 'File-existence verified: src/config.py (created)', evidence_type: 'file_existence'},
      {criterion_id: 'AC-002', criterion_text: '`docs/x.md` written', status: 'partial', evidence: 'File existence verified: docs/x.md', evidence_type: 'file_existence'},
    ])
    expect(sink.records.map((r) => r.message)).toContain('Generated 2 file-existence promises for TASK-X (agent did not produce promises)')
  })

  it("between 723e5f4e and 71a5fb57 the seed's statuses apply: a match is only partial", () => {
    const result = createPlayerReportFromTaskWork(fix5Input(front, {'docs/x.md': null}), asRun('c5a83a15'))
    if (!result.ok) throw new Error(result.exception)
    expect(result.playerReport.completion_promises).toEqual([
      {criterion_id: 'AC-001', status: 'partial', evidence: 'File existence verified: src/config.py', evidence_type: 'file_existence'},
      {criterion_id: 'AC-002', status: 'partial', evidence: 'File existence verified: docs/x.md', evidence_type: 'file_existence'},
    ])
  })

  it('no task file under tasks/ means no promises', () => {
    const input = {...fix5Input(front), worktree: worktree({'docs/TASK-X.md': front})}
    const result = createPlayerReportFromTaskWork(input, FIXED)
    if (!result.ok) throw new Error(result.exception)
    expect('completion_promises' in result.playerReport).toBe(false)
    expect(result.events).toContainEqual(expect.objectContaining({kind: 'skipped', flag: 'taskFileNotFoundWarning'}))
  })

  it('promises already in task_work_results.json win over the agent report and Fix 5', () => {
    const input = fix5Input(front)
    const twr = {...(input.taskWorkResults as object), completion_promises: [{criterion_id: 'AC-001', status: 'incomplete'}]}
    const result = createPlayerReportFromTaskWork({...input, taskWorkResults: twr, agentReport: AGENT_REPORT}, FIXED)
    if (!result.ok) throw new Error(result.exception)
    expect(result.playerReport.completion_promises).toEqual([{criterion_id: 'AC-001', status: 'incomplete'}])
    expect(result.events).toContainEqual(expect.objectContaining({kind: 'overwritten', field: 'completion_promises'}))
  })
})

describe('_create_player_report_from_task_work edge cases (docs/guardkit-logic.md §4.4)', () => {
  const base: PlayerReportFromTaskWorkInput = {
    taskId: 'T', turn: 2, taskWorkResults: null, taskWorkOutput: null, gitChanges: {modified: ['b.py'], created: ['a.py']}, agentReport: null, worktree: worktree(),
  }

  it('without task_work_results.json the notes say the changes came from git, and nothing is written back', () => {
    const result = createPlayerReportFromTaskWork(base, FIXED)
    if (!result.ok) throw new Error(result.exception)
    expect(result.playerReport.implementation_notes).toBe('Implementation via task-work delegation (git-detected changes)')
    expect(result.taskWorkResultsAfter).toBeNull()
  })

  it('a failed git detection leaves the notes alone and the lists empty', () => {
    const result = createPlayerReportFromTaskWork({...base, gitChanges: null}, FIXED)
    if (!result.ok) throw new Error(result.exception)
    expect(result.playerReport.implementation_notes).toBe('Implementation via task-work delegation')
    expect(result.playerReport.files_created).toEqual([])
  })

  it('an agent report that is not JSON is ignored (Fix 2 catches JSON errors)', () => {
    const result = createPlayerReportFromTaskWork({...base, agentReport: '{"completion_promises": ['}, FIXED)
    expect(result.ok).toBe(true)
  })

  it('an agent report that parses to a list raises AttributeError out of the method', () => {
    const result = createPlayerReportFromTaskWork({...base, agentReport: '[]'}, FIXED)
    expect(result).toEqual(expect.objectContaining({ok: false, exception: "AttributeError: 'list' object has no attribute 'get'"}))
    // Legacy never reads the agent's file.
    expect(createPlayerReportFromTaskWork({...base, agentReport: '[]'}, LEGACY).ok).toBe(true)
  })

  it('an integer tests_passed from the parser sets tests_passed_count; a bool does not', () => {
    const withInt = createPlayerReportFromTaskWork({...base, taskWorkOutput: {tests_passed: 0}}, FIXED)
    const withBool = createPlayerReportFromTaskWork({...base, taskWorkOutput: {tests_passed: false}}, FIXED)
    if (!withInt.ok || !withBool.ok) throw new Error('raised')
    expect([withInt.playerReport.tests_passed, withInt.playerReport.tests_passed_count, withInt.playerReport.tests_run]).toEqual([false, 0, true])
    expect('tests_passed_count' in withBool.playerReport).toBe(false)
  })
})

describe('one task-work turn end to end (docs/guardkit-logic.md §4)', () => {
  it('gives the Coach the written-back results and reports every step in order', () => {
    const turn = runTaskWorkTurn({
      taskId: 'TASK-SFT-001', turn: 1, player: {kind: 'stream', messages: STREAM},
      gitChanges: {modified: ['pyproject.toml'], created: ['tests/seam/__init__.py']}, agentReport: AGENT_REPORT, worktree: worktree(), timestamp: 't',
    }, LEGACY)
    expect(turn.resultsWritten.files_created).toEqual(['**'])
    if (!turn.coachInputs.ok) throw new Error(turn.coachInputs.exception)
    expect(turn.coachInputs.taskWorkResults).toBe(turn.resultsWritten)
    const steps = turn.events.map((e) => e.step.split(':')[0]!.split('.')[0])
    expect(steps.indexOf('TaskWorkStreamParser')).toBeLessThan(steps.indexOf('_create_player_report_from_task_work'))
    expect(turn.events.map((e) => e.kind)).toContain('overwritten')
  })

  it('legacy leaves the git-detected files out of task_work_results.json (seed 000: "twr keeps files_*: []")', () => {
    const turn = runTaskWorkTurn({
      taskId: 'T', turn: 1, player: {kind: 'parser-output', output: {}}, gitChanges: {modified: ['pyproject.toml'], created: ['tests/seam/__init__.py']},
      agentReport: null, worktree: worktree(), timestamp: 't',
    }, LEGACY)
    if (!turn.coachInputs.ok) throw new Error(turn.coachInputs.exception)
    expect([turn.coachInputs.taskWorkResults.files_created, turn.coachInputs.playerReport.files_created]).toEqual([[], ['tests/seam/__init__.py']])
    expect(turn.events.filter((e) => e.kind === 'not-written-back').map((e) => e.field)).toEqual(['files_modified', 'files_created'])
  })

  it('accepts a recorded parser output instead of the stream', () => {
    const turn = runTaskWorkTurn({
      taskId: 'T', turn: 1, player: {kind: 'parser-output', output: {tests_passed: 4}}, gitChanges: null, agentReport: null, worktree: worktree(), timestamp: 't',
    }, FIXED)
    expect(turn.resultsWritten.summary).toBe('4 tests passed')
    expect(turn.coachInputs.ok && turn.coachInputs.playerReport.tests_passed_count).toBe(4)
  })
})
