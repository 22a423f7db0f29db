import type {AnalysisReport, FeaturePicture, TaskAnalysis} from '../../explain/analysis.js'
import type {RunEra} from '../../explain/era-statement.js'
import type {Evidence} from '../../model/evidence.js'
import type {Finding} from '../../model/finding.js'
import {formatReplayOutcome, type ReplayedTurn, type TaskReplay} from '../../replay/types.js'
import {buildReport, reportTask} from './build-report.js'
import type {Report, ReportFinding, ReportReplay, ReportReplayTurn, ReportTask} from './report.js'

export interface AnalysisJsonOptions {
  /** Per replayed turn, how it was replayed (TurnDetail): `explain --json`. */
  readonly turnDetail?: boolean
  /** Keep only these tasks (and, with `turn`, only that turn of each). */
  readonly tasks?: readonly TaskAnalysis[]
  readonly turn?: number | null
  readonly focus?: Report['focus']
}

/**
 * `analyze --json` (docs/json-schema.md, schemaVersion 1): the inspect document plus, per task, `replay`
 * per profile and `findings`, and the additions the contract welcomes (verdict, whatif, era,
 * profiles, feature). Key order follows the contract; additions come after the fixed fields.
 * `explain` and `whatif` print the same document narrowed to their task (and turn).
 */
export function buildAnalysisReport(report: AnalysisReport, options: AnalysisJsonOptions = {}): Report {
  const base = buildReport(report.run, report.tool)
  const era = report.era
  const tasks = options.tasks ?? report.tasks
  return {
    schemaVersion: base.schemaVersion,
    tool: base.tool,
    run: {
      ...base.run,
      inferredProfile: era.profile === null ? null : {name: era.profile, reason: era.reason},
      ...(report.runEra === undefined ? {} : {era: runEraOf(report.runEra)}),
    },
    ingestIssues: base.ingestIssues,
    tasks: tasks.map((t) => analysisTask(t, options)),
    attempts: base.attempts,
    loggerStats: base.loggerStats,
    eraMarkers: base.eraMarkers,
    ...(base.eventLogs === undefined ? {} : {eventLogs: base.eventLogs}),
    era: {profile: era.profile, window: {from: era.window.from, to: era.window.to}, reason: era.reason, confidence: era.confidence, modelled: era.modelled, evidence: era.evidence.map(ev)},
    profiles: report.profiles.map((p) => ({name: p.name, description: p.description})),
    feature: report.feature === null ? null : featureOf(report.feature),
    features: (report.features ?? (report.feature === null ? [] : [report.feature])).map(featureOf),
    ...(options.focus === undefined ? {} : {focus: options.focus}),
  }
}

/** `run.era`: the run's era said once (docs/json-schema.md). */
function runEraOf(e: RunEra): NonNullable<Report['run']['era']> {
  return {label: e.label, name: e.name, from: e.from, to: e.to, replayed: e.replayed, statement: e.statement, basis: [...e.basis], confidence: e.confidence, evidence: e.evidence.map(ev)}
}

/** One task run of the document (written one at a time when streamed: json-chunks.ts). */
export function analysisTask(t: TaskAnalysis, options: AnalysisJsonOptions = {}): ReportTask {
  const {taskId, attempt, mode, recorded, ...rest} = reportTask(t.task)
  const turn = options.turn ?? null
  const keep = <T extends {turn: number}>(turns: readonly T[]): T[] => (turn === null ? [...turns] : turns.filter((u) => u.turn === turn))
  const v = t.verdict
  return {
    taskId,
    attempt,
    mode,
    recorded: {...recorded, turns: keep(recorded.turns)},
    replay: Object.fromEntries(Object.entries(t.replays).map(([name, r]) => [name, replayOf(r, keep, options.turnDetail ?? false)])),
    diagnosis: t.diagnosis === null ? null : {
      primary: {...t.diagnosis.primary, evidence: t.diagnosis.primary.evidence.map(ev)},
      contributing: t.diagnosis.contributing.map((c) => ({category: c.category, findingIds: [...c.findingIds]})),
      confidence: t.diagnosis.confidence,
    },
    findings: t.findings.map(findingOf),
    ...rest,
    verdict: {ok: v.ok, happened: v.happened, why: v.why, underProfiles: v.underProfiles.map((u) => ({...u})), waste: v.waste === null ? null : {...v.waste}, doNow: [...v.doNow], fixedIn: [...v.fixedIn], notFixed: [...v.notFixed]},
    whatif: t.whatif === null ? null : {
      baseline: t.whatif.baseline,
      baselineOutcome: t.whatif.baselineOutcome,
      flips: t.whatif.flips.map((f) => ({flags: [...f.flags], outcome: f.outcome, changesAtTurn: f.changesAtTurn, fidelity: f.fidelity, ...(f.onlyIf ? {onlyIf: f.onlyIf.map((c) => ({assume: c.assume, outcome: c.outcome}))} : {})})),
      fixedStillFails: t.whatif.fixedStillFails,
      searched: t.whatif.searched,
    },
  }
}

function replayOf(r: TaskReplay, keep: <T extends {turn: number}>(turns: readonly T[]) => T[], detail: boolean): ReportReplay {
  const o = r.outcome
  return {
    outcome: formatReplayOutcome(o),
    ...(o.kind === 'branches'
      ? {branches: o.branches.map((b) => ({assume: b.assume, outcome: b.outcome, stallTurn: b.stallTurn, endTurn: b.endTurn, values: Object.fromEntries(Object.entries(b.values).map(([k, v]) => [k, [...(v ?? [])]]))}))}
      : {}),
    stallTurn: r.stallTurn,
    turns: keep(r.turns).map((u) => replayTurnOf(u, detail)),
    missingInputs: [...r.missingInputs],
    outcomeKind: o.kind,
    endTurn: o.kind === 'replayed' || o.kind === 'recorded-boundary' ? o.turn : null,
    outcomeEvidence: o.kind === 'recorded-boundary' ? o.evidence.map(ev) : [],
    ...(r.enumerated && r.enumerated.length > 0
      ? {enumeratedInputs: r.enumerated.map((e) => ({id: e.id, input: e.input, values: e.values.map((v) => ({value: v.value, assume: v.assume})), turns: [...e.turns], changesOutcome: e.changesOutcome}))}
      : {}),
  }
}

function replayTurnOf(u: ReplayedTurn, detail: boolean): ReportReplayTurn {
  return {
    turn: u.turn,
    decision: u.decision,
    criteriaMet: u.criteriaMet,
    criteriaTotal: u.criteriaTotal,
    signature: u.signature,
    fidelity: u.fidelity,
    confidence: u.confidence,
    missingInputs: [...u.missingInputs],
    assumptions: [...u.assumptions],
    diverges: u.diverges,
    feedback: u.feedback,
    feedbackBasis: u.feedbackBasis,
    stall: u.stall === null ? null : {...u.stall, window: u.stall.window.map((w) => ({...w}))},
    ...(detail ? {detail: JSON.parse(JSON.stringify(u.detail)) as ReportReplayTurn['detail']} : {}),
  }
}

function findingOf(f: Finding): ReportFinding {
  return {
    code: f.code,
    category: f.category,
    severity: f.severity,
    confidence: f.confidence,
    turns: [...f.turns],
    message: f.message,
    evidence: f.evidence.map(ev),
    reproduce: f.reproduce,
    remediation: f.remediation,
    fixedIn: f.fixedIn === null ? null : {flags: [...f.fixedIn.flags], commit: f.fixedIn.commit},
    causes: [...f.causes],
    id: f.id,
    source: {function: f.source.function, spec: f.source.spec},
    ...(f.deduction === undefined ? {} : {deduction: f.deduction}),
    ...(f.detail === undefined ? {} : {detail: JSON.parse(JSON.stringify(f.detail)) as Record<string, unknown>}),
  }
}

function featureOf(f: FeaturePicture): NonNullable<Report['feature']> {
  return {
    featureId: f.featureId,
    ...(f.attempt === undefined ? {} : {attempt: f.attempt}),
    featureResult: f.featureResult,
    waves: f.waves.map((w) => ({wave: w.wave, taskIds: [...w.taskIds], statuses: {...w.statuses}})),
    timeouts: f.timeouts.map((x) => ({taskId: x.taskId, seconds: x.seconds, turn: x.turn, ...(x.stage === undefined ? {} : {stage: x.stage}),
      ...(x.laterTurn === undefined ? {} : {laterTurn: x.laterTurn}), evidence: x.evidence.map(ev)})),
    disagreements: f.disagreements.map((d) => ({taskId: d.taskId, featureSays: d.featureSays, taskSays: d.taskSays, evidence: d.evidence.map(ev), ...(d.note === undefined ? {} : {note: d.note})})),
  }
}

function ev(e: Evidence): Evidence {
  return {
    file: e.file,
    ...(e.line === undefined ? {} : {line: e.line}),
    ...(e.pointer === undefined ? {} : {pointer: e.pointer}),
    ...(e.note === undefined ? {} : {note: e.note}),
    ...(e.text === undefined ? {} : {text: e.text}),
  }
}
