// The diagnosis corpus check (docs/root-causes.md, "How it is measured"): every labelled failed task
// run of the diagnosis corpus (its labels.json) is analysed in-process from its log, and the primary
// cause the tool names is compared with the maintainers' label. Also: approved task runs (outcomes.json)
// must not be diagnosed as failures. Used by scripts/corpus/diagnoses.ts and test/corpus/diagnoses.test.ts.
import {createHash} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import type {AnalysisReport, TaskAnalysis} from '../../src/explain/analysis.js'
import {analyzeRunPath} from '../../src/services/analyze.js'
import {UsageError} from '../../src/shared/errors.js'

export interface Label {
  readonly log: string
  readonly corpusLog: string
  readonly taskId: string
  readonly attempt: number
  readonly outcome: string | null
  readonly turns: number | null
  readonly primary: string
  readonly contributing: readonly string[]
  readonly confidence: string
}

export type Split = 'develop' | 'held-out'

export interface LabelResult {
  readonly label: Label
  readonly split: Split
  /**
   * found: the labelled run of the task is in the analysis (runs), and did not end approved;
   * not-a-capture: the tool refused the file as no capture (a document quoting records, docs/ingest.md).
   */
  readonly state: 'found' | 'not-recovered' | 'recorded-approved' | 'not-a-capture'
  readonly primary: string | null
  /** The primary finding's code: CAUSE_NOT_RECORDED is a run whose records name no cause at all. */
  readonly primaryCode: string | null
  readonly agree: boolean
  readonly summary: string | null
}

export interface ApprovedResult {
  readonly log: string
  readonly taskId: string
  readonly occurrence: number
  readonly state: 'found' | 'not-recovered'
  /** The tool diagnosed it as a failure, marked it ✗, or gave it a critical/high finding. */
  readonly asFailure: boolean
  readonly why: string | null
}

export interface Agreement {
  readonly labels: readonly LabelResult[]
  readonly approved: readonly ApprovedResult[]
}

/** Held out: a third of the logs, chosen by a hash of the log's name (never by what it holds). */
export function splitOf(log: string): Split {
  return createHash('sha256').update(log).digest()[0]! % 3 === 0 ? 'held-out' : 'develop'
}

export async function measureAgreement(corpus: string): Promise<Agreement> {
  const labels = JSON.parse(readFileSync(`${corpus}/diagnoses/labels.json`, 'utf8')) as Label[]
  const outcomes = JSON.parse(readFileSync(`${corpus}/diagnoses/outcomes.json`, 'utf8')) as {logs: Record<string, [string, string, number][]>}
  const cache = new Map<string, AnalysisReport | UsageError>()
  /** The analysis of a log, or the usage error the tool answers a file it does not take for a capture with. */
  const analyse = async (path: string): Promise<AnalysisReport | UsageError> => {
    let hit = cache.get(path)
    if (hit === undefined) {
      try {
        hit = await analyzeRunPath(path, {tool: {name: 'guardkit-replay', version: 'corpus'}, names: [], with: [], without: [], progress: {step: () => undefined, done: () => undefined}})
      } catch (error) {
        if (!(error instanceof UsageError)) throw error
        hit = error
      }
      cache.set(path, hit)
    }
    return hit
  }
  const results: LabelResult[] = []
  const byLog = new Map<string, Label[]>()
  for (const label of labels) byLog.set(label.corpusLog, [...(byLog.get(label.corpusLog) ?? []), label])
  for (const [corpusLog, list] of byLog) {
    const report = await analyse(`${corpus}/${corpusLog}`)
    if (report instanceof UsageError) {
      for (const label of list) results.push({label, split: splitOf(label.log), state: 'not-a-capture', primary: null, primaryCode: null, agree: false, summary: report.message})
      continue
    }
    const runOf = labelledRuns(report, list)
    for (const label of list) {
      const task = runOf.get(label) ?? null
      const split = splitOf(label.log)
      if (task === null) {
        results.push({label, split, state: 'not-recovered', primary: null, primaryCode: null, agree: false, summary: null})
        continue
      }
      if (task.task.outcome?.value === 'approved') {
        results.push({label, split, state: 'recorded-approved', primary: null, primaryCode: null, agree: false, summary: task.verdict.why})
        continue
      }
      const primary = task.diagnosis?.primary.category ?? null
      const primaryCode = task.findings.find((f) => f.id === task.diagnosis?.primary.findingId)?.code ?? null
      results.push({label, split, state: 'found', primary, primaryCode, agree: primary === label.primary, summary: task.diagnosis?.primary.summary ?? null})
    }
  }
  results.sort((a, b) => labels.indexOf(a.label) - labels.indexOf(b.label))
  const approved: ApprovedResult[] = []
  for (const [log, runs] of Object.entries(outcomes.logs)) {
    const path = logPath(corpus, labels, log)
    if (path === null) continue
    const report = await analyse(path)
    const seen = new Map<string, number>()
    for (const [taskId, decision] of runs) {
      const occurrence = (seen.get(taskId) ?? 0) + 1
      seen.set(taskId, occurrence)
      if (decision !== 'approved') continue
      const task = report instanceof UsageError ? null : nthRun(report.tasks, taskId, occurrence)
      if (task === null) {
        approved.push({log, taskId, occurrence, state: 'not-recovered', asFailure: false, why: null})
        continue
      }
      const serious = task.findings.some((f) => f.severity === 'critical' || f.severity === 'high')
      approved.push({log, taskId, occurrence, state: 'found', asFailure: task.diagnosis !== null || !task.verdict.ok || serious, why: task.verdict.why})
    }
  }
  // the other corpus logs: their approved task runs as expected.json records them (attempt null: the only one)
  const expected = JSON.parse(readFileSync(`${corpus}/expected.json`, 'utf8')) as {logs: Record<string, Record<string, {taskId: string; attempt: number | null; outcome: string | null}>>}
  for (const [log, entries] of Object.entries(expected.logs)) {
    if (outcomes.logs[log] !== undefined || !existsSync(`${corpus}/logs/${log}`)) continue
    const report = await analyse(`${corpus}/logs/${log}`)
    for (const e of Object.values(entries)) {
      if (e.outcome !== 'approved') continue
      const task = report instanceof UsageError ? null : report.tasks.find((t) => t.task.taskId === e.taskId && t.task.attempt === (e.attempt ?? t.task.attempt)) ?? null
      if (task === null) {
        approved.push({log, taskId: e.taskId, occurrence: e.attempt ?? 1, state: 'not-recovered', asFailure: false, why: null})
        continue
      }
      const serious = task.findings.some((f) => f.severity === 'critical' || f.severity === 'high')
      approved.push({log, taskId: e.taskId, occurrence: e.attempt ?? 1, state: 'found', asFailure: task.diagnosis !== null || !task.verdict.ok || serious, why: task.verdict.why})
    }
  }
  return {labels: results, approved}
}

/**
 * The run of each label, per task in attempt order: the next run with the label's outcome and turn
 * count, else the next run. The labels count every print of a Claude Code transcript as a run; the
 * ingest reads a run printed several times once (a `repeated-output` note), so a label that repeats
 * the run matched last is that run (the rule of scripts/corpus/outcome-check.ts).
 */
function labelledRuns(report: AnalysisReport, labels: readonly Label[]): Map<Label, TaskAnalysis> {
  const reprinted = report.run.ingestIssues.some((i) => i.code === 'repeated-output')
  const same = (t: TaskAnalysis, l: Label) => (t.task.outcome?.value ?? null) === l.outcome && (t.task.turnCount?.value ?? null) === l.turns
  const out = new Map<Label, TaskAnalysis>()
  const byTask = new Map<string, Label[]>()
  for (const l of [...labels].sort((a, b) => a.attempt - b.attempt)) byTask.set(l.taskId, [...(byTask.get(l.taskId) ?? []), l])
  for (const [taskId, list] of byTask) {
    const runs = report.tasks.filter((t) => t.task.taskId === taskId).sort((a, b) => a.task.attempt - b.task.attempt)
    let next = 0
    let last: TaskAnalysis | null = null
    for (const l of list) {
      const at = runs.findIndex((t, i) => i >= next && same(t, l))
      const run: TaskAnalysis | null = at !== -1 ? runs[at]! : last !== null && reprinted && same(last, l) ? last : (runs[next] ?? null)
      if (run === null) continue
      out.set(l, run)
      if (run !== last) next = runs.indexOf(run) + 1
      last = run
    }
  }
  return out
}

/** The n-th run of a task in the report, by attempt order (outcomes.json counts runs the same way). */
function nthRun(tasks: readonly TaskAnalysis[], taskId: string, n: number): TaskAnalysis | null {
  const runs = tasks.filter((t) => t.task.taskId === taskId).sort((a, b) => a.task.attempt - b.task.attempt)
  return runs[n - 1] ?? null
}

/** outcomes.json names logs by file name; they sit in diagnoses/logs/ or in logs/. */
function logPath(corpus: string, labels: readonly Label[], log: string): string | null {
  const fromLabel = labels.find((l) => l.corpusLog.endsWith(`/${log}`))
  if (fromLabel) return `${corpus}/${fromLabel.corpusLog}`
  for (const dir of ['diagnoses/logs', 'logs']) if (existsSync(`${corpus}/${dir}/${log}`)) return `${corpus}/${dir}/${log}`
  return null
}

/** Per category (the labels'), develop / held-out / all: labelled, found, agreeing. */
export function tabulate(a: Agreement): {category: string; split: Split | 'all'; labelled: number; found: number; agree: number}[] {
  const rows: {category: string; split: Split | 'all'; labelled: number; found: number; agree: number}[] = []
  const categories = [...new Set(a.labels.map((r) => r.label.primary))].sort()
  for (const split of ['develop', 'held-out', 'all'] as const) {
    for (const category of [...categories, '(all)']) {
      const rs = a.labels.filter((r) => (split === 'all' || r.split === split) && (category === '(all)' || r.label.primary === category))
      if (rs.length === 0) continue
      rows.push({category, split, labelled: rs.length, found: rs.filter((r) => r.state === 'found').length, agree: rs.filter((r) => r.agree).length})
    }
  }
  return rows
}

/**
 * The agreement as scripts/corpus/diagnoses.ts prints it: per category (develop / held-out / all), the confusion
 * pairs, the labelled runs not recovered (or in a file the tool does not take for a capture), the failed runs with
 * no named cause and those whose category the records cannot decide, and the approved runs diagnosed as failures.
 * test/corpus/diagnoses.test.ts prints it too, from the analysis it checks, so that CI does not analyse the
 * diagnosis corpus a second time to show it.
 */
export function describeAgreement(a: Agreement, verbose = false): string {
  const out: string[] = []
  const say = (line: string) => void out.push(line)

  const pct = (n: number, d: number) => (d === 0 ? '–' : `${Math.round((100 * n) / d)}%`)
  say('agreement of diagnosis.primary with the labels: agree/labelled (found = recovered by ingest and not ended approved)')
  const rows = tabulate(a)
  const cell = (category: string, split: string) => {
    const r = rows.find((x) => x.category === category && x.split === split)
    return r === undefined ? '–' : `${r.agree}/${r.labelled}${r.found < r.labelled ? ` (${r.found} found)` : ''} ${pct(r.agree, r.labelled)}`
  }
  say(`${'category'.padEnd(22)}${'develop'.padStart(24)}${'held-out'.padStart(24)}${'all'.padStart(24)}`)
  for (const category of [...new Set(rows.map((r) => r.category))].sort((x, y) => (x === '(all)' ? 1 : y === '(all)' ? -1 : x < y ? -1 : 1))) {
    say(`${category.padEnd(22)}${cell(category, 'develop').padStart(24)}${cell(category, 'held-out').padStart(24)}${cell(category, 'all').padStart(24)}`)
  }
  const pairs = new Map<string, number>()
  for (const r of a.labels) if (r.state === 'found' && !r.agree) pairs.set(`${r.label.primary} → ${r.primary ?? '(none)'}`, (pairs.get(`${r.label.primary} → ${r.primary ?? '(none)'}`) ?? 0) + 1)
  say('\nconfusion (label → tool):')
  for (const [k, n] of [...pairs].sort((x, y) => y[1] - x[1])) say(`  ${String(n).padStart(3)}  ${k}`)
  const silent = a.labels.filter((r) => r.state === 'found' && (r.primary === null || r.primaryCode === 'CAUSE_NOT_RECORDED'))
  say(`\nfailed runs with no named cause (no diagnosis, or CAUSE_NOT_RECORDED: the records name none): ${silent.length}`)
  for (const r of silent) say(`  ${r.label.log} ${r.label.taskId}#${r.label.attempt} (label ${r.label.primary})`)
  const undecided = a.labels.filter((r) => r.state === 'found' && r.primary === 'unknown' && r.primaryCode !== 'CAUSE_NOT_RECORDED')
  say(`\nfailed runs with a named cause whose category the records cannot decide (primary category unknown): ${undecided.length}`)
  for (const r of undecided) say(`  ${r.label.log} ${r.label.taskId}#${r.label.attempt} (label ${r.label.primary}): ${r.primaryCode}`)
  const missing = a.labels.filter((r) => r.state !== 'found')
  say(`\nlabelled runs not recovered by ingest, or in a file it does not take for a capture: ${missing.length}`)
  for (const r of missing) say(`  ${r.label.log} ${r.label.taskId}#${r.label.attempt}: ${r.state}`)
  const approved = a.approved.filter((r) => r.state === 'found')
  const asFailure = approved.filter((r) => r.asFailure)
  say(`\napproved runs diagnosed as failures: ${asFailure.length} of ${approved.length} (${pct(asFailure.length, approved.length)}); not recovered: ${a.approved.length - approved.length}`)
  for (const r of asFailure) say(`  ${r.log} ${r.taskId}#${r.occurrence}: ${r.why ?? ''}`)
  if (verbose) {
    say('\nevery labelled run:')
    for (const r of a.labels) say(`  ${r.agree ? '✓' : '✗'} [${r.split}] ${r.label.log} ${r.label.taskId}#${r.label.attempt} label=${r.label.primary} tool=${r.primary ?? r.state}\n      ${r.summary ?? ''}`)
  }
  return out.join('\n')
}
