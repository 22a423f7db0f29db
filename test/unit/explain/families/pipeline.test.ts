import {describe, expect, it} from 'vitest'
import {detectPipelineFindings, isSpuriousEntry} from '../../../../src/explain/families/pipeline.js'
import type {ArtifactVersion} from '../../../../src/model/run-record.js'
import {eraOf, fact, familyInput, handInput, loadFixture, taskOf, taskRun, turn} from '../helpers.js'

const version = (file: string, json: unknown): ArtifactVersion => ({file, json, schema: 'x.v1', seenAt: null})

describe('FILE_TRACKING_KEY_MISMATCH', () => {
  it('is reported for a Write whose input names its file under a key no parser reads', () => {
    const task = taskRun({turns: [turn(1, {player: {toolInputKeys: fact([['filename', 'content']], 42)}})]})
    const [f] = detectPipelineFindings(handInput(task)).filter((x) => x.code === 'FILE_TRACKING_KEY_MISMATCH')
    expect(f!.turns).toEqual([1])
    expect(f!.evidence).toContainEqual({file: 'run.log', line: 42})
  })

  it('is not reported for the alternative keys the fixed parser reads (path, file, filePath)', () => {
    const task = taskRun({turns: [turn(1, {player: {toolInputKeys: fact([['path', 'content'], ['file'], ['filePath', 'old_string']])}})]})
    expect(detectPipelineFindings(handInput(task))).toEqual([])
  })
})

describe('the seed 000 pipeline losses (ac1a-run2-sft001)', () => {
  it('AGENT_PROMISES_OVERWRITTEN points at the agent-written version and the rewrite', async () => {
    const run = await loadFixture('ac1a-run2-sft001')
    const f = detectPipelineFindings(familyInput(run, taskOf(run, 'TASK-SFT-001'))).find((x) => x.code === 'AGENT_PROMISES_OVERWRITTEN')
    expect(f!.turns).toEqual([1, 2, 3])
    expect(f!.evidence.some((e) => e.file.startsWith('versions/') && e.pointer === '/completion_promises')).toBe(true)
    expect(f!.fixedIn).toEqual({flags: ['recoverAgentPromises', 'writeBackResults'], commit: '723e5f4e'})
  })

  it('RESULTS_NOT_ENRICHED compares task_work_results.json with the same turn\'s player report', async () => {
    const run = await loadFixture('ac1a-run2-sft001')
    const f = detectPipelineFindings(familyInput(run, taskOf(run, 'TASK-SFT-001'))).find((x) => x.code === 'RESULTS_NOT_ENRICHED')
    expect(f!.turns).toContain(3)
    expect(f!.message).toMatch(/listed 1 files .* listed 4/)
  })
})

describe('SPURIOUS_FILE_ENTRIES', () => {
  it('takes wildcards, blanks and bare lower-case words for non-files, and real names for files', () => {
    for (const bad of ['**', '*', '***', '*.py', '', '  ', 'house']) expect(isSpuriousEntry(bad), bad).toBe(true)
    for (const good of ['Makefile', 'Dockerfile', 'src/app.py', '/abs/x.json', 'README.md']) expect(isSpuriousEntry(good), good).toBe(false)
  })
})

describe('TASK_ID_MISSING_IN_RESULTS', () => {
  const twr = (taskId: unknown) => version('.guardkit/autobuild/TASK-X-001/task_work_results.json', {task_id: taskId, completed: true, files_created: []})

  it('is reported for an empty task_id before the Coach fell back to its own (pre-edb5fd18)', () => {
    const task = taskRun({turns: [turn(1, {artifacts: {taskWorkResults: [twr('')]}})]})
    const [f] = detectPipelineFindings(handInput(task, {era: eraOf('as-run:8a697b80')})).filter((x) => x.code === 'TASK_ID_MISSING_IN_RESULTS')
    expect(f!.evidence).toEqual([{file: '.guardkit/autobuild/TASK-X-001/task_work_results.json', pointer: '/task_id'}])
    expect(f!.fixedIn!.flags).toEqual(['promiseTaskIdFallback'])
  })

  it('is not reported on GuardKit edb5fd18+, or when the id is there', () => {
    expect(detectPipelineFindings(handInput(taskRun({turns: [turn(1, {artifacts: {taskWorkResults: [twr('')]}})]}), {era: eraOf('fixed')}))).toEqual([])
    expect(detectPipelineFindings(handInput(taskRun({turns: [turn(1, {artifacts: {taskWorkResults: [twr('TASK-X-001')]}})]}), {era: eraOf('legacy')}))).toEqual([])
  })
})

describe('synthetic reports (rk01-003-direct-mode, seed 001)', () => {
  it('SYNTHETIC_FLAG_MISSING and SYNTHETIC_REPORT_WITHOUT_PROMISES on every turn; DIRECT_MODE_WITH_CRITERIA for the task', async () => {
    const run = await loadFixture('rk01-003-direct-mode')
    const findings = detectPipelineFindings(familyInput(run, taskOf(run, 'TASK-RK01-003')))
    expect(findings.find((f) => f.code === 'SYNTHETIC_FLAG_MISSING')!.turns).toEqual([1, 2, 3])
    expect(findings.find((f) => f.code === 'SYNTHETIC_REPORT_WITHOUT_PROMISES')!.turns).toEqual([1, 2, 3])
    const direct = findings.find((f) => f.code === 'DIRECT_MODE_WITH_CRITERIA')!
    // The frontmatter sets implementation_mode: direct explicitly, which the fixed AC-count guard does not override (docs/guardkit-logic.md §9.2).
    expect(direct.fixedIn).toBeNull()
    expect(direct.message).toContain('explicitly')
  })

  it('DIRECT_MODE_WITH_CRITERIA is not reported for a direct task approved on its Player\'s own reports', async () => {
    const run = await loadFixture('ok-approved-after-feedback')
    expect(detectPipelineFindings(familyInput(run, taskOf(run, 'TASK-HC-002'))).map((f) => f.code)).not.toContain('DIRECT_MODE_WITH_CRITERIA')
  })
})
