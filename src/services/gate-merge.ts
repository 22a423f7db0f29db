import {readUserFile} from '../ingest/index.js'
import {summariseGate} from '../explain/gate/summarise.js'
import type {GateProblem, GateReport, GateRun} from '../render/gate-report.js'
import {compareCodePoints} from '../shared/code-point-order.js'
import {UsageError} from '../shared/errors.js'
import {sortProblems} from './gate/run-gate.js'
import {shardOf} from './gate/subjects.js'
import {writeGateOutputs, type GateOutputOptions, type GateOutputs} from './gate/outputs.js'
import {checkNotEmpty} from './gate/empty-gate.js'
import {neutralised} from '../shared/neutralise.js'

export interface MergeResult extends GateOutputs {
  readonly report: GateReport
  readonly exitCode: 0 | 1
}

/**
 * `guardkit-replay gate merge REPORT.json...` (docs/ci.md): the `--json` reports of the shards of one
 * gate → one report, one verdict, one JUnit file. The shards must be of the same gate (baseline,
 * candidate, policy, shard count) and complete (every shard 1…n once); runs are merged in the same
 * canonical order as an unsharded gate, so the result is that gate's report, field for field.
 * Reports without `--shard` are merged as a union of runs.
 */
export async function runGateMerge(files: readonly string[], options: GateOutputOptions & {readonly allowEmpty?: boolean}): Promise<MergeResult> {
  if (files.length === 0) throw new UsageError('gate merge needs the --json reports to merge.', 'Example: guardkit-replay gate merge gate-1.json gate-2.json --junit gate.xml')
  const reports = await Promise.all(files.map(readReport))
  const report = mergeGateReports(reports, files)
  checkNotEmpty(report, options.allowEmpty === true, files.join(' '))
  const outputs = await writeGateOutputs(report, options)
  return {report, exitCode: report.verdict === 'fail' ? 1 : 0, ...outputs}
}

async function readReport(file: string): Promise<GateReport> {
  let text: string
  try {
    text = await readUserFile(file)
  } catch (error) {
    throw new UsageError(neutralised`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`)
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new UsageError(neutralised`${file} is not JSON (${(error as Error).message}).`, 'Pass the files written by `guardkit-replay gate … --json > FILE`.')
  }
  const {GateReportSchema} = await import('../render/json/gate-schema.js')
  const parsed = GateReportSchema.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new UsageError(neutralised`${file} is not a gate report: /${issue.path.join('/')}: ${issue.message}.`, 'Pass the files written by `guardkit-replay gate … --json > FILE`.')
  }
  return parsed.data as unknown as GateReport
}

/** The pure part of the merge; `files` name the reports in messages. */
export function mergeGateReports(reports: readonly GateReport[], files: readonly string[]): GateReport {
  const first = reports[0]!
  const same = (what: string, f: (r: GateReport) => unknown): void => {
    const want = JSON.stringify(f(first))
    const odd = reports.findIndex((r) => JSON.stringify(f(r)) !== want)
    if (odd !== -1) throw new UsageError(neutralised`${files[odd]} is not a shard of the same gate as ${files[0]}: its ${what} differs (${JSON.stringify(f(reports[odd]!))} vs ${want}).`)
  }
  same('baseline', (r) => [r.baseline.name, r.baseline.kind, r.baseline.flags])
  same('candidate', (r) => [r.candidate.name, r.candidate.kind, r.candidate.flags])
  same('policy', (r) => r.policy.failOn)
  same('kind of report (sharded or not)', (r) => r.shard === null)
  let shards = reports.length
  if (first.shard !== null) {
    same('shard count', (r) => r.shard?.count)
    const count = first.shard.count
    const seen = new Map<number, string>()
    reports.forEach((r, i) => {
      const index = r.shard!.index
      if (seen.has(index)) throw new UsageError(neutralised`${files[i]} and ${seen.get(index)} are both shard ${index}/${count}.`)
      seen.set(index, files[i]!)
    })
    const missing = Array.from({length: count}, (_, i) => i + 1).filter((i) => !seen.has(i))
    if (missing.length > 0) throw new UsageError(neutralised`Shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} missing: a merged verdict needs every shard.`)
    shards = count
  }
  reports.forEach((r, i) => checkComplete(r, files[i]!))
  if (first.shard !== null) checkSameCorpus(reports, files)
  const runs: GateRun[] = []
  const owner = new Map<string, string>()
  reports.forEach((r, i) => {
    for (const run of r.runs) {
      if (owner.has(run.path)) throw new UsageError(neutralised`${run.path} is in both ${owner.get(run.path)} and ${files[i]}: the reports overlap.`)
      owner.set(run.path, files[i]!)
      runs.push(run)
    }
  })
  runs.sort((a, b) => compareCodePoints(a.path, b.path))
  const problems: GateProblem[] = reports.flatMap((r) => r.problems)
  const versions = [...new Set(reports.map((r) => r.tool.version))]
  if (versions.length > 1) problems.push({severity: 'warning', path: files.join(' '), message: `the shards were written by different versions of ${first.tool.name} (${versions.join(', ')})`})
  const {summary, verdict} = summariseGate(runs, first.policy)
  return {
    schemaVersion: 1,
    kind: 'guardkit-replay/gate',
    tool: first.tool,
    baseline: first.baseline,
    candidate: first.candidate,
    policy: first.policy,
    shard: null,
    merged: {shards, files: [...files]},
    inputs: [...new Set(reports.flatMap((r) => r.inputs))],
    expectations: [...new Set(reports.flatMap((r) => r.expectations))].sort(compareCodePoints),
    summary,
    verdict,
    runs,
    problems: sortProblems(problems),
  }
}

/**
 * A report holds every run it was given, and counts what it holds: a shard report whose runs were
 * deleted (or a summary edited) would merge into a verdict about a corpus that was not gated.
 * Usage error (exit 2) naming the runs missing.
 */
function checkComplete(report: GateReport, file: string): void {
  const held = new Set(report.runs.map((r) => r.path))
  const given = report.shard?.runs
  if (given !== undefined) {
    const missing = given.filter((p) => !held.has(p))
    const extra = report.runs.filter((r) => !given.includes(r.path)).map((r) => r.path)
    if (missing.length > 0) {
      throw new UsageError(neutralised`${file} is missing ${missing.length === 1 ? 'a run' : `${missing.length} runs`} its shard was given: ${missing}. A merged verdict needs every run.`,
        'Gate the shard again and merge its new report.')
    }
    if (extra.length > 0) throw new UsageError(neutralised`${file} holds runs its shard was not given: ${extra}.`, 'Merge the reports as `gate --shard i/n --json` wrote them.')
  }
  const {summary} = summariseGate(report.runs, report.policy)
  const counted = (x: GateReport['summary']) => [x.runs, x.tasks, x.unchanged, x.improved, x.regressed, x.changed, x.skipped, x.failing].join(',')
  if (counted(summary) !== counted(report.summary)) {
    throw new UsageError(neutralised`${file} does not hold what its summary counts: ${report.runs.length} runs and ${summary.tasks} tasks, its summary ${report.summary.runs} runs and ${report.summary.tasks} tasks. Runs were removed from it, or it was edited.`,
      'Gate the shard again and merge its new report.')
  }
}

/** Every shard of one gate split the same corpus: shard i was given the i-th share of the runs all shards were given. */
function checkSameCorpus(reports: readonly GateReport[], files: readonly string[]): void {
  if (reports.some((r) => r.shard?.runs === undefined)) return
  const corpus = reports.flatMap((r) => r.shard!.runs!).slice().sort(compareCodePoints)
  reports.forEach((r, i) => {
    const share = shardOf(corpus, r.shard)
    const given = r.shard!.runs!
    if (share.length !== given.length || share.some((p, k) => p !== given[k])) {
      throw new UsageError(neutralised`${files[i]} (shard ${r.shard!.index}/${r.shard!.count}) was given other runs than its share of the corpus the shards list: the shards were not run on the same corpus.`,
        'Run every shard on the same checkout of the corpus, then merge.')
    }
  })
}
