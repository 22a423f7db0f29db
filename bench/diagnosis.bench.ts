/**
 * What the diagnosis costs `analyze` on the largest corpus log (run_1.log): the signals kept by the
 * ingest, their classification by the catalogue, the signal findings and the choice of the primary
 * cause (docs/root-causes.md; budget: 10 ms on top of the rest of `analyze`). Measured as CPU time of
 * the diagnosis steps themselves, repeated over the task runs of the analysed log (best of 15 and the
 * median), beside the whole ingest + analyze for scale. CPU time, not wall time: the machine is shared.
 */
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {analyzeRun} from '../src/explain/analyze-run.js'
import {builtinCatalogue} from '../src/explain/diagnosis/catalogue/builtin.js'
import {choosePrimary} from '../src/explain/diagnosis/choose-primary.js'
import {taskSignals} from '../src/explain/diagnosis/task-signals.js'
import {detectTaskFindings} from '../src/explain/detect-findings.js'
import {recordSignal} from '../src/ingest/log/signals/capture.js'
import {createLogIngest} from '../src/ingest/log/ingest.js'
import {mergeArtifacts} from '../src/ingest/merge-artifacts.js'
import {inferEra} from '../src/replay/era.js'

const log = readFileSync(fileURLToPath(new URL('../../shared/corpus/logs/run_1.log', import.meta.url)))
const text = log.toString('utf8')

function emit(name: string, value: number | string, unit: string, extra: {target?: string; met?: boolean; note?: string} = {}): void {
  console.log(`BENCH ${JSON.stringify({name, value, unit, ...extra})}`)
}

function cpu(f: () => void, runs = 15): {best: number; median: number} {
  f()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    ;(globalThis as {gc?: () => void}).gc?.()
    const c = process.cpuUsage()
    f()
    const d = process.cpuUsage(c)
    times.push((d.user + d.system) / 1000)
  }
  times.sort((a, b) => a - b)
  return {best: times[0]!, median: times[Math.floor(times.length / 2)]!}
}

const round = (x: number) => Math.round(x * 10) / 10
const ingest = () => {
  const i = createLogIngest()
  i.startFile('run_1.log')
  i.pushBytes(log)
  return mergeArtifacts({runPath: 'run_1.log', fromLogs: i.finish(), worktrees: [], fixture: null, issues: []})
}
const run = ingest()
const whole = cpu(() => analyzeRun(ingest()))
emit('run_1.log ingest + analyze', round(whole.best), 'ms CPU', {note: `median ${round(whole.median)} ms; for scale`})

// the capture test every record goes through in the ingest (the hook itself is a call and a branch)
const records = [...text.matchAll(/^(INFO|WARNING|ERROR):([A-Za-z_][\w.-]*):(.*)$/gm)].map((m) => [m[1]!, m[2]!, m[3]!] as const)
const capture = cpu(() => {
  for (const [level, logger, message] of records) recordSignal(level, logger, message)
})

const catalogue = builtinCatalogue()
const era = inferEra(run)
const diagnosis = cpu(() => {
  for (const task of run.tasks) {
    const signals = taskSignals(run, task, catalogue)
    const drafts = detectTaskFindings({run, task, replays: {}, era, asRun: null, catalogue}, signals)
    choosePrimary(task, drafts)
  }
})
const findings = cpu(() => {
  for (const task of run.tasks) detectTaskFindings({run, task, replays: {}, era, asRun: null, catalogue}, {classified: [], unclassified: [], dropped: 0})
})
const added = Math.max(0, capture.best + diagnosis.best - findings.best)
emit('run_1.log: signal capture', round(capture.best), 'ms CPU', {note: `${records.length} records; median ${round(capture.median)} ms`})
emit('run_1.log: diagnosis (signals classified, signal findings, primary cause)', round(Math.max(0, diagnosis.best - findings.best)), 'ms CPU', {note: `${run.tasks.length} task runs; the findings of the other families (${round(findings.best)} ms) subtracted`})
emit('run_1.log: added by the diagnosis', round(added), 'ms CPU', {target: '< 10 ms', met: added < 10})
