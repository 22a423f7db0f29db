// The authored held-out set of the diagnosis (fixtures/diagnosis, docs/fixtures.md "Diagnosis fixtures"): every
// fixture is analysed in-process and the primary cause the tool names for its task run is compared with the
// category its case.yaml expects (written from docs/root-causes.md before the tool was run). Used by
// scripts/diagnosis/fixtures.ts (the table) and test/golden/diagnosis-fixtures.test.ts (the floors).
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {parse} from 'yaml'
import type {TaskAnalysis} from '../../src/explain/analysis.js'
import {analyzeRunPath} from '../../src/services/analyze.js'

export interface DiagnosisCase {
  readonly name: string
  readonly dir: string
  readonly taskId: string
  readonly attempt: number
  readonly era: string
  readonly expected: string
  readonly alsoAcceptable: readonly string[]
  readonly why: string
  /** What the records cannot decide, when the tool is not expected to name the category from them (the case stays in the floor). */
  readonly open: string | null
}

export interface CaseResult {
  readonly case: DiagnosisCase
  /** The task run's primary category; null when the run has no diagnosis (or is missing). */
  readonly primary: string | null
  readonly confidence: string | null
  readonly summary: string | null
  readonly found: boolean
  /** The tool names the expected category. */
  readonly agree: boolean
  /** The tool names the expected category or one the case accepts. */
  readonly acceptable: boolean
  readonly task: TaskAnalysis | null
  /** The other task runs of the fixture that the records show approved, and whether the tool treats them as failures. */
  readonly approved: readonly {readonly taskId: string; readonly asFailure: boolean}[]
}

export const diagnosisFixtures = new URL('../../fixtures/diagnosis/', import.meta.url)

export function readCases(root: string): DiagnosisCase[] {
  const out: DiagnosisCase[] = []
  for (const name of readdirSync(root).sort()) {
    const file = join(root, name, 'case.yaml')
    if (!existsSync(file)) continue
    const y = parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    out.push({
      name,
      dir: join(root, name),
      taskId: String(y['taskId']),
      attempt: Number(y['attempt'] ?? 1),
      era: String(y['era']),
      expected: String(y['expected']),
      alsoAcceptable: ((y['alsoAcceptable'] as string[] | undefined) ?? []).map(String),
      why: String(y['why']),
      open: typeof y['open'] === 'string' ? y['open'] : null,
    })
  }
  return out
}

export async function measureCase(c: DiagnosisCase): Promise<CaseResult> {
  const report = await analyzeRunPath(c.dir, {tool: {name: 'guardkit-replay', version: 'fixtures'}, names: [], with: [], without: [], progress: {step: () => undefined, done: () => undefined}})
  const task = report.tasks.find((t) => t.task.taskId === c.taskId && t.task.attempt === c.attempt) ?? null
  const primary = task?.diagnosis?.primary.category ?? null
  return {
    case: c,
    primary,
    confidence: task?.diagnosis?.confidence ?? null,
    summary: task?.diagnosis?.primary.summary ?? null,
    found: task !== null,
    agree: primary === c.expected,
    acceptable: primary !== null && (primary === c.expected || c.alsoAcceptable.includes(primary)),
    task,
    approved: report.tasks
      .filter((t) => t !== task && t.task.outcome?.value === 'approved')
      .map((t) => ({taskId: t.task.taskId, asFailure: t.diagnosis !== null || !t.verdict.ok || t.findings.some((f) => f.severity === 'critical' || f.severity === 'high')})),
  }
}

/** The class of a case: its expected category. */
export function tabulateCases(results: readonly CaseResult[]): {category: string; cases: number; agree: number; acceptable: number}[] {
  const rows: {category: string; cases: number; agree: number; acceptable: number}[] = []
  for (const category of [...new Set(results.map((r) => r.case.expected)).values()].sort().concat('(all)')) {
    const rs = results.filter((r) => category === '(all)' || r.case.expected === category)
    rows.push({category, cases: rs.length, agree: rs.filter((r) => r.agree).length, acceptable: rs.filter((r) => r.acceptable).length})
  }
  return rows
}
