import {stat} from 'node:fs/promises'
import {availableParallelism} from 'node:os'
import {resolve} from 'node:path'
import {summariseGate} from '../../explain/gate/summarise.js'
import type {FailOn} from '../../explain/gate/types.js'
import type {GateProblem, GateReport, GateRun} from '../../render/gate-report.js'
import {normaliseFailOn} from '../../render/gate-report.js'
import {compareCodePoints} from '../../shared/code-point-order.js'
import {UsageError} from '../../shared/errors.js'
import {closest} from '../../shared/suggest.js'
import {checkNotEmpty} from './empty-gate.js'
import {expandCorpus} from './expand-paths.js'
import {loadCorpusExpectations} from './corpus-expectations.js'
import {writeGateOutputs, type GateOutputOptions, type GateOutputs} from './outputs.js'
import {checkOutputsOutsideCorpus} from './output-paths.js'
import {gateRuns} from './pool.js'
import {createGateProgress} from './progress.js'
import {parseShard, resolveSubject, shardOf} from './subjects.js'
import type {RunJob} from './gate-run.js'
import {neutralised} from '../../shared/neutralise.js'

export interface GateOptions extends GateOutputOptions {
  readonly tool: {readonly name: string; readonly version: string}
  readonly baseline: string
  readonly candidate: string
  readonly profilesFile?: string
  readonly failOn?: readonly FailOn[]
  /** `i/n`. */
  readonly shard?: string
  /** Worker threads (default: the machine's cores). */
  readonly jobs?: number
  /** false: no progress on stderr. */
  readonly progress?: boolean
  /** A gate that gates no task passes (`--allow-empty`); otherwise it is an input error. */
  readonly allowEmpty?: boolean
  readonly cwd?: string
}

export interface GateResult extends GateOutputs {
  readonly report: GateReport
  /** 0: no regression; 1: the verdict is fail. */
  readonly exitCode: 0 | 1
}

/**
 * `guardkit-replay gate PATH... --baseline P --candidate P` (docs/ci.md): expand the corpus, take
 * this shard's runs, gate each run (on worker threads for a large corpus), summarise, and render:
 * the report (text, Markdown or JSON), the JUnit file, GitHub annotations and the step summary.
 */
export async function runGate(paths: readonly string[], options: GateOptions): Promise<GateResult> {
  const cwd = options.cwd ?? process.cwd()
  if (paths.length === 0) throw new UsageError('gate needs at least one PATH: run directories, log files, corpus folders or globs.')
  const user = options.profilesFile === undefined ? [] : await (await import('../user-profiles.js')).loadUserProfiles(options.profilesFile)
  const baseline = resolveSubject(options.baseline, '--baseline', user)
  const candidate = resolveSubject(options.candidate, '--candidate', user)
  const shard = parseShard(options.shard)
  const policy = {failOn: normaliseFailOn(options.failOn ?? [])}
  await checkNotMistypedMerge(paths[0]!, cwd)
  const corpus = await expandCorpus(paths, cwd)
  if (corpus.length === 0) throw new UsageError(neutralised`Nothing to gate in ${paths.join(' ')}: no run directory or log file found.`)
  await checkOutputsOutsideCorpus(paths, corpus, [{flag: '--junit', file: options.junit}, {flag: '--html', file: options.html}], cwd)
  const expectations = await loadCorpusExpectations(corpus, cwd)
  const jobs: RunJob[] = shardOf(corpus, shard).map((run) => ({abs: run.abs, path: run.path, expectations: expectations.forRun(run.abs)}))
  const progress = createGateProgress({enabled: options.progress, env: options.env})
  progress.start(jobs.length)
  let failing = 0
  let runs: GateRun[]
  try {
    runs = await gateRuns(jobs, {baseline: baseline.spec, candidate: candidate.spec, policy}, {
      jobs: Math.max(1, options.jobs ?? availableParallelism()),
      onRun(run, done) {
        failing += run.tasks.filter((t) => t.failing).length
        progress.update(done, failing)
      },
    })
  } finally {
    progress.done()
  }
  const {summary, verdict} = summariseGate(runs, policy)
  const report: GateReport = {
    schemaVersion: 1,
    kind: 'guardkit-replay/gate',
    tool: {name: options.tool.name, version: options.tool.version},
    baseline: baseline.info,
    candidate: candidate.info,
    policy,
    shard: shard === null ? null : {...shard, runs: jobs.map((j) => j.path)},
    merged: null,
    inputs: [...paths],
    expectations: expectations.files,
    summary,
    verdict,
    runs,
    problems: sortProblems([...expectations.problems, ...runProblems(runs, policy.failOn.includes('skipped'))]),
  }
  checkNotEmpty(report, options.allowEmpty === true, paths.join(' '))
  const outputs = await writeGateOutputs(report, options)
  return {report, exitCode: verdict === 'fail' ? 1 : 0, ...outputs}
}

/** Runs that could not be read at all: an error under --fail-on skipped, a warning otherwise. */
export function runProblems(runs: readonly GateRun[], failOnSkipped: boolean): GateProblem[] {
  return runs.filter((r) => r.skipReason !== null).map((r) => ({severity: failOnSkipped ? 'error' : 'warning', path: r.path, message: `not gated: ${r.skipReason}`}))
}

/** Canonical order, duplicates dropped (shards report the same corpus-wide problems). */
export function sortProblems(problems: readonly GateProblem[]): GateProblem[] {
  const seen = new Set<string>()
  return [...problems]
    .sort((a, b) => compareCodePoints(a.path, b.path) || compareCodePoints(a.message, b.message) || compareCodePoints(a.severity, b.severity))
    .filter((p) => {
      const k = `${p.severity}\u0000${p.path}\u0000${p.message}`
      return seen.has(k) ? false : (seen.add(k), true)
    })
}

/**
 * `gate mrege a.json`: the subcommand's name mistyped reaches the gate as its first PATH. When that
 * word names nothing on disk and is a typo of `merge`, say so instead of "PATH not found".
 */
async function checkNotMistypedMerge(first: string, cwd: string): Promise<void> {
  if (first.includes('/') || first.includes('.') || closest(first, ['merge']).length === 0) return
  const found = await stat(resolve(cwd, first)).then(() => true, () => false)
  if (!found) throw new UsageError(`gate has no subcommand or PATH ${first}.`, 'Did you mean `guardkit-replay gate merge`?')
}
