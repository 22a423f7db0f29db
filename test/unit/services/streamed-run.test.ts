import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Readable} from 'node:stream'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import type {TaskAnalysis} from '../../../src/explain/analysis.js'
import {analyzeRun, analyzeStreamedRun} from '../../../src/explain/analyze-run.js'
import {createEraTally} from '../../../src/replay/index.js'
import {readRun} from '../../../src/ingest/index.js'
import {createNodeFilePort} from '../../../src/ingest/index.js'
import type {TaskRun} from '../../../src/model/run-record.js'
import {buildAnalysisReport} from '../../../src/render/json/build-analysis-report.js'
import {buildReport} from '../../../src/render/json/build-report.js'
import {present, type Drawn} from '../../../src/render/present.js'
import {PLAIN} from '../../../src/render/text/plain-palette.js'
import {analyzeRunPath, analyzeRunStreamed} from '../../../src/services/analyze.js'
import {runInspect, runInspectJson} from '../../../src/services/inspect.js'

/**
 * A log of several AutoBuild runs read as a stream (docs/architecture.md "Streaming") gives the same
 * record, analysis and JSON document as the same log read whole. The log: authored fixture logs one
 * after another (each one run), as a capture of several builds in one terminal would hold them.
 */
const FIXTURES = fileURLToPath(new URL('../../../fixtures/runs/', import.meta.url))
const LOGS = ['ok-parallel-waves', 'db-003-timeout-log-only', 'hostile-log', 'ok-approved-after-feedback', 'ac1a-run1-pre-acr']
const many = Buffer.concat(LOGS.map((name) => readFileSync(`${FIXTURES}${name}/run.log`)))
const stdin = () => Readable.from([many.subarray(0, 70_001), many.subarray(70_001)])
const tool = {name: 'guardkit-replay', version: 'test'}
const request = {names: [], with: [], without: [], tool, progress: {step: () => {}, done: () => {}}}

async function text(drawn: Promise<Drawn>): Promise<string> {
  const d = await drawn
  if (d.kind === 'json') return JSON.stringify(d.json, null, 2)
  if (d.kind === 'json-chunks') return [...d.chunks].join('')
  throw new Error('not JSON')
}

const surface = {palette: PLAIN, width: 100, verbose: false}

describe('a log of several runs, streamed', () => {
  it('hands over every attempt\'s task runs, in order, as the whole read holds them, and keeps none', async () => {
    const port = createNodeFilePort()
    const whole = await readRun(port, '-', {stdin: stdin()})
    const handed: TaskRun[] = []
    const attempts: number[] = []
    const streamed = await readRun(port, '-', {stdin: stdin(), onAttemptTasks: (tasks, attempt) => {
      handed.push(...tasks)
      attempts.push(attempt.attempt)
    }})
    expect(whole.run.attempts.length).toBeGreaterThanOrEqual(LOGS.length)
    expect(streamed.streamed).toBe(true)
    expect(streamed.run.tasks).toEqual([])
    expect(attempts).toEqual(whole.run.attempts.map((a) => a.attempt))
    expect(handed).toEqual(whole.run.tasks)
    expect({...streamed.run, tasks: whole.run.tasks}).toEqual(whole.run)
  })

  it('reads a folder with worktrees whole (artifacts may belong to any attempt), and says so', async () => {
    const read = await readRun(createNodeFilePort(), `${FIXTURES}db-003-timeout`, {onAttemptTasks: () => {
      throw new Error('a worktree run is not streamed')
    }})
    expect(read.streamed).toBe(false)
    expect(read.run.tasks.length).toBeGreaterThan(0)
  })

  it('gives `analyze --json` the document the whole report gives, byte for byte', async () => {
    const wholeReport = await analyzeRunPath('-', {...request, stdin: stdin()})
    const streamed = await analyzeRunStreamed('-', {...request, stdin: stdin()})
    expect('analysis' in streamed).toBe(true)
    const result = 'analysis' in streamed ? {kind: 'analysis-stream' as const, analysis: streamed.analysis} : {kind: 'analysis' as const, report: streamed.report}
    const streamedText = await text(present(result, 'json', surface))
    expect(streamedText).toBe(JSON.stringify(buildAnalysisReport(wholeReport), null, 2))
    const doc = JSON.parse(streamedText) as {tasks: {findings: {id: string}[]}[]}
    expect(doc.tasks.length).toBe(wholeReport.tasks.length)
    // ids run over the task runs in order (each task's most severe first): f1, f2, … with no gap
    const ids = doc.tasks.flatMap((t) => t.findings.map((f) => Number(f.id.slice(1))))
    expect(ids).toEqual(ids.map((_, i) => i + 1))
  })

  it('classifies with the user\'s --signals rules as the whole report does (docs/signals.md)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-streamed-signals-'))
    const signalsFile = join(dir, 'rules.yaml')
    writeFileSync(signalsFile, `version: 1
rules:
  - id: site.verify
    category: test-environment
    stage: coach-tests
    match: {pattern: 'Independent test verification failed for TASK-DB-003'}
    summary: 'our CI database was down'
    means: 'The shared test database of this site refused connections.'
    action: 'Restart the shared test database.'
    examples:
      - 'WARNING:guardkit.orchestrator.quality_gates.coach_validator:Independent test verification failed for TASK-DB-003'
`)
    const wholeReport = await analyzeRunPath('-', {...request, stdin: stdin(), signalsFile})
    const streamed = await analyzeRunStreamed('-', {...request, stdin: stdin(), signalsFile})
    if (!('analysis' in streamed) || !('tasks' in streamed.analysis)) throw new Error('a short log of several runs is streamed and analysed after the read')
    const ruleIds = (tasks: Iterable<TaskAnalysis>) => [...tasks].flatMap((t) => (t.explain?.signals?.classified ?? []).map((c) => c.rule.id)).filter((id) => id.startsWith('site.'))
    const wholeIds = ruleIds(wholeReport.tasks)
    expect(wholeIds.length).toBeGreaterThan(0)
    expect(ruleIds(streamed.analysis.tasks())).toEqual(wholeIds)
  })

  it('gives `inspect --json` the document the whole record gives, byte for byte', async () => {
    const {report} = await runInspect('-', tool, {stdin: stdin()})
    const {result} = await runInspectJson('-', tool, {stdin: stdin()})
    expect(result.kind).toBe('inspect-stream')
    expect(await text(present(result, 'json', surface))).toBe(JSON.stringify(report, null, 2))
  })

  it('takes an attempt\'s task runs only once the task runs before them are drawn (one attempt held at a time)', async () => {
    const handed = new Map<number, readonly TaskRun[]>()
    const tally = createEraTally()
    const read = await readRun(createNodeFilePort(), '-', {stdin: stdin(), onAttemptTasks: (tasks, attempt) => {
      handed.set(attempt.attempt, tasks)
      for (const t of tasks) tally.add(t)
    }})
    const events: string[] = []
    const analysis = analyzeStreamedRun(read.run, (attempt) => {
      events.push(`take ${attempt}`)
      return handed.get(attempt) ?? []
    }, tally.finish(read.run))
    const {analysisJsonChunks} = await import('../../../src/render/json/json-chunks.js')
    for (const chunk of analysisJsonChunks(analysis)) {
      const id = typeof chunk === 'string' ? /^,?\n {4}\{\n {6}"taskId": "([^"]+)",\n {6}"attempt": (\d+)/.exec(chunk) : null
      if (id !== null) events.push(`draw ${id[2]}`)
    }
    const attempts = read.run.attempts.map((a) => a.attempt).filter((a) => (handed.get(a) ?? []).length > 0)
    expect(attempts.length).toBeGreaterThan(2)
    // each attempt is taken, then its task runs drawn, before the next is taken
    const order = events.filter((e, i) => events.indexOf(e) === i && (e.startsWith('draw') || attempts.includes(Number(e.split(' ')[1]))))
    expect(order).toEqual(attempts.flatMap((a) => [`take ${a}`, `draw ${a}`]))
  })

  it('draws a run without task runs as an empty list, as JSON.stringify does', async () => {
    const empty = analyzeRun({path: 'x.log', logs: ['x.log'], worktrees: [], attempts: [], tasks: [], feature: null, eraMarkers: [], ingestIssues: [], loggerStats: []})
    const {analysisJsonChunks} = await import('../../../src/render/json/json-chunks.js')
    const drawn = [...analysisJsonChunks({head: empty, tasks: () => [], features: () => ({feature: null, features: []})})].join('')
    expect(drawn).toBe(JSON.stringify(buildAnalysisReport(empty), null, 2))
  })

  it('cuts the document at the top-level tasks even when a value spells the same text', async () => {
    const {drawInspectTasks, inspectJsonChunks} = await import('../../../src/render/json/json-chunks.js')
    const whole = await readRun(createNodeFilePort(), '-', {stdin: stdin()})
    const run = {...whole.run, path: '\n  "tasks": []', tasks: []}
    const drawn = [...inspectJsonChunks(run, tool, [drawInspectTasks(whole.run.tasks)])].join('')
    expect(drawn).toBe(JSON.stringify(buildReport({...run, tasks: whole.run.tasks}, tool), null, 2))
  })
})
