import {DEFAULT_LIMITS, type IngestLimits} from '../../src/ingest/discover.js'
import {buildAnalysisReport} from '../../src/render/json/build-analysis-report.js'
import type {Report} from '../../src/render/json/report.js'
import {analyzeRunPath} from '../../src/services/analyze.js'
import type {Expected} from './expectations.js'
import {explicitProfiles} from './expectations.js'
import type {GoldenView, ViewReplay, ViewTask} from './view.js'

/**
 * The real pipeline, in process, as `analyze --json` runs it (services/analyze.ts: loadRun, era
 * inference, the replay under the default profiles, findings) and the contract's JSON document it
 * prints (render/json). Golden checks read the document, i.e. what a user of `--json` gets.
 */
export interface GoldenRun {
  readonly report: Report
  readonly view: GoldenView
}

const TOOL = {name: 'guardkit-replay', version: 'golden'}
const SILENT = {step: () => undefined, done: () => undefined}

export async function analyzeForGolden(runPath: string, expected: Pick<Expected, 'run' | 'tasks'>): Promise<GoldenRun> {
  const limits: IngestLimits = {...DEFAULT_LIMITS, ...(expected.run?.ingestLimits ?? {})}
  const analyse = async (names: readonly string[]) =>
    buildAnalysisReport(await analyzeRunPath(runPath, {names, with: [], without: [], tool: TOOL, limits, progress: SILENT}))
  const report = await analyse([])
  // Profiles the defaults (the inferred one, legacy, fixed) do not cover are replayed in a second pass.
  const have = new Set(report.tasks.flatMap((t) => Object.keys(t.replay ?? {})))
  const extra = explicitProfiles({tasks: expected.tasks}).filter((p) => !have.has(p))
  const more = extra.length > 0 ? await analyse(extra) : null
  return {report, view: toView(report, more)}
}

/** The contract document reduced to what expected.yaml talks about. */
export function toView(report: Report, more: Report | null = null): GoldenView {
  const extraReplays = (taskId: string, attempt: number) => more?.tasks.find((t) => t.taskId === taskId && t.attempt === attempt)?.replay ?? {}
  return {
    inferredProfile: report.run.inferredProfile?.name ?? null,
    ingestIssues: report.ingestIssues.map((i) => ({file: i.file, code: i.code ?? ''})),
    tasks: report.tasks.map((t): ViewTask => {
      const r = t.recorded
      return {
        taskId: t.taskId,
        attempt: t.attempt,
        mode: t.mode,
        recorded: {
          outcome: r.outcome,
          turns: r.turnCount ?? r.turns.length,
          stall: r.stall === null ? null : {turn: r.stall.turn, signature: r.stall.signature},
          criteria: Object.fromEntries(r.turns.map((u) => [u.turn, [u.criteriaMet, u.criteriaTotal] as const])),
        },
        replays: Object.fromEntries(Object.entries({...(t.replay ?? {}), ...extraReplays(t.taskId, t.attempt)}).map(([name, p]) => [name, replayView(p)])),
        findings: (t.findings ?? []).map((f) => ({code: f.code, turns: [...f.turns]})),
      }
    }),
  }
}

type ReportReplay = NonNullable<Report['tasks'][number]['replay']>[string]

function replayView(p: ReportReplay): ViewReplay {
  const outcome = p.outcome ?? 'null'
  const after = /^undetermined after turn (\d+)$/.exec(outcome)
  const last = p.turns.length > 0 ? p.turns[p.turns.length - 1]!.turn : null
  return {
    outcome,
    stallTurn: p.stallTurn,
    endTurn: p.endTurn ?? (after ? Number(after[1]) : p.outcomeKind === 'not-modelled' ? null : last),
    turns: p.turns.map((u) => ({
      turn: u.turn,
      criteriaMet: u.criteriaMet,
      criteriaTotal: u.criteriaTotal,
      signature: u.signature,
      fidelity: u.fidelity,
      missingInputs: u.missingInputs ?? [],
    })),
    missingInputs: p.missingInputs,
    branches: (p.branches ?? []).map((b) => ({outcome: b.outcome, stallTurn: b.stallTurn, endTurn: b.endTurn, values: b.values ?? {}})),
  }
}
