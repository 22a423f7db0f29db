import {z} from 'zod'
import {ROOT_CAUSES} from '../../model/root-cause.js'
import {SCHEMA_VERSION} from './build-report.js'

/**
 * The `--json` report of `analyze` (docs/json-schema.md, schemaVersion 1). `inspect --json` prints the
 * same document without `replay` and `findings`. Field names fixed by the contract are kept as
 * they are; the other fields are additions the contract welcomes. Tests validate output against
 * this schema; the CLI does not import it (start-up time), it builds the document directly
 * (`build-report.ts`).
 */
export {SCHEMA_VERSION}

export const EvidenceSchema = z.object({
  file: z.string(),
  line: z.number().int().positive().optional(),
  pointer: z.string().optional(),
  note: z.string().optional(),
  /** The line's text (untrusted: what the log held), when the report quotes it. */
  text: z.string().optional(),
})

export const IngestIssueSchema = z.object({
  file: z.string(),
  line: z.number().int().optional(),
  pointer: z.string().optional(),
  message: z.string(),
  severity: z.enum(['error', 'warning', 'info']).optional(),
  code: z.string().optional(),
})

const TurnEvidenceSchema = z.object({
  decision: z.array(EvidenceSchema),
  criteria: z.array(EvidenceSchema),
  feedback: z.array(EvidenceSchema),
  player: z.array(EvidenceSchema),
  tests: z.array(EvidenceSchema).optional(),
})

export const RecordedTurnSchema = z.object({
  turn: z.number().int().positive(),
  decision: z.enum(['approve', 'feedback', 'error']).nullable(),
  criteriaMet: z.number().int().nonnegative().nullable(),
  criteriaTotal: z.number().int().nonnegative().nullable(),
  feedback: z.string().nullable(),
  // additions
  feedbackCompleteness: z.enum(['full', 'truncated']).nullable().optional(),
  verified: z.number().int().nullable().optional(),
  rejected: z.number().int().nullable().optional(),
  pending: z.number().int().nullable().optional(),
  player: z.enum(['success', 'error', 'feedback']).nullable().optional(),
  playerError: z.string().nullable().optional(),
  coachError: z.string().nullable().optional(),
  testCommand: z.string().nullable().optional(),
  independentTests: z.object({passed: z.boolean(), durationSeconds: z.number().nullable(), skipped: z.boolean().optional()}).nullable().optional(),
  evidence: TurnEvidenceSchema.optional(),
})

export const RecordedStallSchema = z.object({
  turn: z.number().int().nullable(),
  signature: z.string().nullable(),
  // additions
  kind: z.enum(['feedback', 'context-pollution', 'player-invocation']).optional(),
  windowTurns: z.number().int().nullable().optional(),
  criteriaPassing: z.number().int().nullable().optional(),
  extended: z.boolean().optional(),
  errorText: z.string().nullable().optional(),
  evidence: z.array(EvidenceSchema).optional(),
})

const StallCheckSchema = z.object({
  signature: z.string(),
  rawSignature: z.string(),
  normalisedSignature: z.string(),
  count: z.number().int(),
  window: z.array(z.object({turn: z.number().int(), signature: z.string(), count: z.number().int()})),
  threshold: z.number().int(),
  fired: z.boolean(),
  reason: z.string(),
})

/** `explain --json` only: how the turn was replayed (src/replay/types.ts TurnDetail), plain JSON. */
const TurnDetailSchema = z.looseObject({
  player: z.looseObject({source: z.string(), events: z.array(z.looseObject({step: z.string(), kind: z.string(), field: z.string(), message: z.string()}))}),
  coach: z.looseObject({source: z.string(), step: z.string()}),
  feedback: z.looseObject({recorded: z.string().nullable(), rebuiltFrom: z.string().nullable()}),
  loop: z.looseObject({}),
  differences: z.array(z.looseObject({field: z.string()})),
})

export const ReplayTurnSchema = z.object({
  turn: z.number().int().positive(),
  decision: z.enum(['approve', 'feedback', 'error']).nullable(),
  criteriaMet: z.number().int().nullable(),
  criteriaTotal: z.number().int().nullable(),
  signature: z.string().nullable(),
  fidelity: z.enum(['exact', 'approximate', 'insufficient']),
  // additions
  confidence: z.enum(['recorded', 'inferred']).optional(),
  missingInputs: z.array(z.string()).optional(),
  assumptions: z.array(z.string()).optional(),
  diverges: z.boolean().optional(),
  feedback: z.string().nullable().optional(),
  feedbackBasis: z.enum(['full', 'rebuilt', 'recorded', 'category', 'unknown']).optional(),
  stall: StallCheckSchema.nullable().optional(),
  detail: TurnDetailSchema.optional(),
})

/** One outcome of an undetermined replay: `{assume, outcome, stallTurn, endTurn}` (docs/json-schema.md, `branches`). */
export const ReplayBranchSchema = z.object({
  assume: z.string(),
  outcome: z.string(),
  stallTurn: z.number().int().nullable(),
  endTurn: z.number().int().nullable(),
  // additions
  values: z.record(z.string(), z.array(z.string())).optional(),
})

export const ReplaySchema = z.object({
  outcome: z.string().nullable(),
  branches: z.array(ReplayBranchSchema).optional(),
  stallTurn: z.number().int().nullable(),
  turns: z.array(ReplayTurnSchema),
  missingInputs: z.array(z.string()),
  // additions
  outcomeKind: z.enum(['replayed', 'recorded-boundary', 'undetermined', 'not-modelled', 'branches']).optional(),
  endTurn: z.number().int().nullable().optional(),
  outcomeEvidence: z.array(EvidenceSchema).optional(),
  enumeratedInputs: z.array(z.object({
    id: z.string(),
    input: z.string(),
    values: z.array(z.object({value: z.string(), assume: z.string()})),
    turns: z.array(z.number().int()),
    changesOutcome: z.boolean(),
  })).optional(),
})

export const FindingSchema = z.object({
  code: z.string(),
  category: z.enum(ROOT_CAUSES),
  severity: z.enum(['critical', 'high', 'medium', 'low', 'info']),
  confidence: z.enum(['certain', 'inferred']),
  turns: z.array(z.number().int()),
  message: z.string(),
  evidence: z.array(EvidenceSchema),
  reproduce: z.string(),
  remediation: z.string(),
  fixedIn: z.object({flags: z.array(z.string()), commit: z.string()}).nullable(),
  causes: z.array(z.string()),
  id: z.string(),
  source: z.object({function: z.string(), spec: z.string()}),
  // additions
  deduction: z.string().optional(),
  detail: z.record(z.string(), z.unknown()).optional(),
})

export const DiagnosisSchema = z.object({
  primary: z.object({category: z.enum(ROOT_CAUSES), findingId: z.string(), summary: z.string(), evidence: z.array(EvidenceSchema)}),
  contributing: z.array(z.object({category: z.enum(ROOT_CAUSES), findingIds: z.array(z.string())})),
  confidence: z.enum(['certain', 'inferred']),
})

export const VerdictSchema = z.object({
  ok: z.boolean(),
  happened: z.string(),
  why: z.string(),
  underProfiles: z.array(z.object({profile: z.string(), text: z.string()})),
  waste: z.object({shouldHaveStoppedAt: z.number().int(), turnsWasted: z.number().int(), minutesWasted: z.number().nullable(), basis: z.string()}).nullable(),
  doNow: z.array(z.string()),
  fixedIn: z.array(z.string()),
  notFixed: z.array(z.string()),
})

export const WhatIfSchema = z.object({
  baseline: z.string(),
  baselineOutcome: z.string(),
  flips: z.array(z.object({
    flags: z.array(z.string()),
    outcome: z.string(),
    changesAtTurn: z.number().int().nullable(),
    fidelity: z.enum(['exact', 'approximate', 'insufficient']),
    onlyIf: z.array(z.object({assume: z.string(), outcome: z.string()})).optional(),
  })),
  fixedStillFails: z.string().nullable(),
  searched: z.string(),
})

export const FeatureSchema = z.object({
  featureId: z.string().nullable(),
  attempt: z.number().int().positive().optional(),
  featureResult: z.string().nullable(),
  waves: z.array(z.object({wave: z.number().int(), taskIds: z.array(z.string()), statuses: z.record(z.string(), z.string())})),
  timeouts: z.array(z.object({taskId: z.string(), seconds: z.number().nullable(), turn: z.number().int().nullable(),
    stage: z.enum(['before-turn', 'during-turn']).optional(), laterTurn: z.number().int().optional(), evidence: z.array(EvidenceSchema)})),
  disagreements: z.array(z.object({taskId: z.string(), featureSays: z.string(), taskSays: z.string(), evidence: z.array(EvidenceSchema), note: z.string().optional()})),
})

export const EraSchema = z.object({
  profile: z.string().nullable(),
  window: z.object({from: z.string().nullable(), to: z.string().nullable()}),
  reason: z.string(),
  confidence: z.enum(['high', 'medium', 'low']),
  modelled: z.boolean(),
  evidence: z.array(EvidenceSchema),
})

export const ReportTaskSchema = z.object({
  taskId: z.string(),
  attempt: z.number().int().positive(),
  mode: z.enum(['task-work', 'direct']).nullable(),
  recorded: z.object({
    outcome: z.string().nullable(),
    turns: z.array(RecordedTurnSchema),
    stall: RecordedStallSchema.nullable(),
    // additions
    turnCount: z.number().int().nullable().optional(),
    error: z.string().nullable().optional(),
    events: z.array(z.object({kind: z.string(), turn: z.number().int().nullable(), detail: z.string().nullable(), evidence: z.array(EvidenceSchema)})).optional(),
    evidence: z.object({outcome: z.array(EvidenceSchema), mode: z.array(EvidenceSchema)}).optional(),
  }),
  replay: z.record(z.string(), ReplaySchema).optional(),
  /** `analyze`: the root cause of a task run that did not end approved, null when it did (docs/root-causes.md). */
  diagnosis: DiagnosisSchema.nullable().optional(),
  findings: z.array(FindingSchema).optional(),
  // additions
  file: z.string().optional(),
  taskType: z.string().nullable().optional(),
  verdict: VerdictSchema.optional(),
  whatif: WhatIfSchema.nullable().optional(),
})

export const ReportSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  tool: z.object({name: z.string(), version: z.string()}),
  run: z.object({
    path: z.string(),
    logs: z.array(z.string()),
    worktrees: z.array(z.string()),
    inferredProfile: z.object({name: z.string(), reason: z.string()}).nullable(),
    // addition: the run's era on the timeline, said once (docs/era-markers.md)
    era: z.object({
      label: z.string().nullable(),
      name: z.string().nullable(),
      from: z.string().nullable(),
      to: z.string().nullable(),
      replayed: z.boolean(),
      statement: z.string(),
      basis: z.array(z.string()),
      confidence: z.enum(['high', 'medium', 'low']).nullable(),
      evidence: z.array(EvidenceSchema),
    }).optional(),
  }),
  ingestIssues: z.array(IngestIssueSchema),
  tasks: z.array(ReportTaskSchema),
  // additions
  attempts: z.array(z.object({
    attempt: z.number().int().positive(),
    file: z.string(),
    startLine: z.number().int(),
    endLine: z.number().int(),
    command: z.string().nullable(),
    kind: z.enum(['feature', 'task']),
    featureId: z.string().nullable(),
    featureResult: z.string().nullable(),
    truncated: z.boolean(),
    taskIds: z.array(z.string()),
  })).optional(),
  loggerStats: z.array(z.object({logger: z.string(), parsed: z.number().int(), counted: z.number().int()})).optional(),
  eraMarkers: z.array(z.object({id: z.string(), count: z.number().int(), evidence: z.array(EvidenceSchema)})).optional(),
  eventLogs: z.array(z.object({
    file: z.string(),
    entries: z.array(z.object({
      line: z.number().int().positive(),
      role: z.string().nullable(),
      taskId: z.string().nullable(),
      featureId: z.string().nullable(),
      runId: z.string().nullable(),
      attempt: z.number().nullable(),
      timestamp: z.string().nullable(),
      failureCategory: z.string().nullable(),
    })),
  })).optional(),
  era: EraSchema.optional(),
  profiles: z.array(z.object({name: z.string(), description: z.string()})).optional(),
  feature: FeatureSchema.nullable().optional(),
  /** Every feature run captured (a log may hold several attempts); `feature` is the main one. */
  features: z.array(FeatureSchema).optional(),
  /** `explain` and `whatif`: which part of the run the document is about. */
  focus: z.object({command: z.enum(['explain', 'whatif']), taskId: z.string().nullable(), attempt: z.number().int().nullable(), turn: z.number().int().nullable(), profiles: z.array(z.string())}).optional(),
})

export type Report = z.infer<typeof ReportSchema>
export type ReportTask = z.infer<typeof ReportTaskSchema>
export type RecordedTurn = z.infer<typeof RecordedTurnSchema>
export type ReportReplay = z.infer<typeof ReplaySchema>
export type ReportReplayTurn = z.infer<typeof ReplayTurnSchema>
export type ReportFinding = z.infer<typeof FindingSchema>
