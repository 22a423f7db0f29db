import {z} from 'zod'
import {FAIL_ON, GATE_RULES} from '../../explain/gate/types.js'

/**
 * The gate's `--json` document (src/render/gate-report.ts) as a zod schema: `gate merge` reads shard
 * reports through it, and the tests validate the gate's output with it. Objects are loose: a newer
 * report's added fields pass through (docs/ci.md: fields are only added within schemaVersion 1).
 */
const fidelity = z.enum(['exact', 'approximate', 'insufficient'])
const klass = z.enum(['unchanged', 'improved', 'regressed', 'changed', 'skipped'])
const rule = z.enum(GATE_RULES as [string, ...string[]])

const Side = z.looseObject({
  subject: z.string(),
  outcome: z.string(),
  kind: z.enum(['approved', 'stalled', 'failed', 'boundary', 'undetermined', 'not-modelled']),
  endTurn: z.number().int().nullable(),
  stallTurn: z.number().int().nullable(),
  fidelity,
  branches: z.array(z.looseObject({assume: z.string(), outcome: z.string(), stallTurn: z.number().int().nullable(), endTurn: z.number().int().nullable()})).optional(),
})

const Cell = z.looseObject({
  decision: z.string().nullable(),
  criteriaMet: z.number().nullable(),
  criteriaTotal: z.number().nullable(),
  signature: z.string().nullable(),
  feedback: z.string().nullable(),
  feedbackComplete: z.boolean(),
  fidelity,
  inferred: z.boolean(),
  stallFired: z.boolean(),
})

const Reason = z.looseObject({
  rule,
  effect: z.enum(['regression', 'improvement', 'change', 'note']),
  turn: z.number().int().nullable(),
  message: z.string(),
  approximate: z.boolean(),
  note: z.string().optional(),
  waived: z.boolean().optional(),
})

const Evidence = z.looseObject({file: z.string(), line: z.number().int().optional(), pointer: z.string().optional()})

const Finding = z.looseObject({
  code: z.string(),
  severity: z.enum(['critical', 'high', 'medium', 'low', 'info']),
  confidence: z.enum(['certain', 'inferred']),
  turns: z.array(z.number().int()),
  message: z.string(),
  fixedIn: z.looseObject({flags: z.array(z.string()), commit: z.string()}).nullable(),
  evidence: z.array(Evidence),
  reproduce: z.string(),
  explains: z.array(rule),
  why: z.string(),
})

const Expectation = z.looseObject({
  file: z.string(),
  key: z.string(),
  pins: z.array(z.looseObject({role: z.enum(['baseline', 'candidate']), subject: z.string(), expected: z.string(), found: z.string(), met: z.boolean()})),
  wanted: z.array(z.string()),
  note: z.string().nullable(),
})

const Task = z.looseObject({
  taskId: z.string(),
  attempt: z.number().int(),
  classification: klass,
  failing: z.boolean(),
  approximate: z.boolean(),
  reasons: z.array(Reason),
  skipReason: z.string().nullable(),
  baseline: Side,
  candidate: Side,
  recorded: z.looseObject({outcome: z.string().nullable(), turns: z.number().int(), stallTurn: z.number().int().nullable()}),
  expectation: Expectation.nullable(),
  turns: z.array(z.looseObject({turn: z.number().int(), recorded: Cell.nullable(), baseline: Cell.nullable(), candidate: Cell.nullable()})).nullable(),
  findings: z.array(Finding),
  reproduce: z.string(),
})

const Run = z.looseObject({
  path: z.string(),
  era: z.looseObject({profile: z.string().nullable(), modelled: z.boolean(), confidence: z.enum(['high', 'medium', 'low']), reason: z.string()}).nullable(),
  ingestIssues: z.number().int(),
  skipReason: z.string().nullable(),
  tasks: z.array(Task),
})

const Subject = z.looseObject({
  name: z.string(),
  kind: z.enum(['profile', 'as-run', 'recorded']),
  description: z.string(),
  flags: z.array(z.string()).nullable(),
})

const count = z.number().int().nonnegative()

export const GateReportSchema = z.looseObject({
  schemaVersion: z.literal(1),
  kind: z.literal('guardkit-replay/gate'),
  tool: z.looseObject({name: z.string(), version: z.string()}),
  baseline: Subject,
  candidate: Subject,
  policy: z.looseObject({failOn: z.array(z.enum(FAIL_ON))}),
  shard: z.looseObject({index: z.number().int().positive(), count: z.number().int().positive(), runs: z.array(z.string()).optional()}).nullable(),
  merged: z.looseObject({shards: z.number().int(), files: z.array(z.string())}).nullable(),
  inputs: z.array(z.string()),
  expectations: z.array(z.string()),
  summary: z.looseObject({runs: count, tasks: count, unchanged: count, improved: count, regressed: count, changed: count, skipped: count, failing: count, approximate: count}),
  verdict: z.enum(['pass', 'fail']),
  runs: z.array(Run),
  problems: z.array(z.looseObject({severity: z.enum(['error', 'warning']), path: z.string(), message: z.string()})),
})
