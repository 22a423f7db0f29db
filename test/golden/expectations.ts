import {parse} from 'yaml'
import {z} from 'zod'

/**
 * The `expected.yaml` format of docs/fixtures.md, shared by the golden tests (fixtures/runs/*) and the
 * public-corpus expectations (test/corpus/expectations.yaml). The schema is strict: a misspelt key is
 * an error, never a silently unchecked expectation.
 */

/** Stall signatures are 8 lower-case hex digits; YAML turns some (all digits, `1e5…`) into numbers, so they must be quoted then. */
const Signature = z.string().regex(/^[0-9a-f]{8}$/, 'an 8-hex signature (quote it in YAML when it is all digits)')
const Turn = z.coerce.number().int().positive()
const TurnMap = <T extends z.ZodType>(value: T) => z.record(z.string().regex(/^[1-9][0-9]*$/, 'a turn number'), value)
const MetTotal = z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])
/** One value or a list meaning "any of". */
const AnyOf = <T extends z.ZodType>(value: T) => z.union([value, z.array(value).min(1)])

/** Profile keys: `legacy`, `fixed`, `pre-acr`, `as-run:<commit>`, or `as-run` = the profile the tool inferred. */
export const PROFILE_KEY = /^(legacy|fixed|pre-acr|as-run|as-run:[0-9a-f]{7,40})$/
const ProfileKey = z.string().regex(PROFILE_KEY, 'legacy | fixed | pre-acr | as-run | as-run:<commit>')

/** One branch of an undetermined replay: its ending, and (optionally) the values of the missing inputs that give it. */
const BranchExpectation = z.strictObject({
  outcome: AnyOf(z.string()),
  stallTurn: Turn.nullable().optional(),
  endTurn: Turn.nullable().optional(),
  values: z.record(z.string(), AnyOf(z.string())).optional(),
})

const ProfileExpectation = z.strictObject({
  /** A GuardKit outcome, `<outcome> (recorded)`, `undetermined after turn N`, `undetermined` (see branches); a list = any of. */
  outcome: AnyOf(z.string()).optional(),
  /** For an undetermined outcome: exactly these branches (in any order). */
  branches: z.array(BranchExpectation).min(2).optional(),
  /** The turn at which the feedback-stall detector fires; `null` = it must not fire. */
  stallTurn: Turn.nullable().optional(),
  /** The last turn the replay executes. */
  endTurn: Turn.optional(),
  /** `approximate`: no replayed turn of this profile may be `exact`, and missingInputs must say what is missing. */
  fidelity: z.literal('approximate').optional(),
  /** These replayed turns must not be reported as `exact` (their inputs are partial); other turns are not checked. */
  inexactTurns: z.array(Turn).min(1).optional(),
})

const Finding = z.strictObject({code: z.string().regex(/^[A-Z0-9_]+$/), turns: z.array(Turn)})

const TaskExpectation = z.strictObject({
  taskId: z.string().min(1),
  attempt: z.number().int().positive(),
  mode: z.enum(['task-work', 'direct']).nullable().optional(),
  recorded: z
    .strictObject({
      outcome: z.string().nullable().optional(),
      turns: z.number().int().nonnegative().optional(),
      stall: z.strictObject({turn: Turn, signature: Signature}).nullable().optional(),
      criteria: TurnMap(MetTotal).optional(),
    })
    .optional(),
  replay: z.record(ProfileKey, ProfileExpectation).optional(),
  criteria: z.record(ProfileKey, TurnMap(MetTotal)).optional(),
  signatures: z.record(ProfileKey, TurnMap(Signature)).optional(),
  findings: z
    .strictObject({
      present: z.array(Finding).optional(),
      absent: z.array(z.string().regex(/^[A-Z0-9_]+$/)).optional(),
    })
    .optional(),
})

/** Overrides of src/ingest/discovery/limits.ts `IngestLimits` for one fixture. */
const IngestLimitsOverride = z.strictObject({
  maxLogBytes: z.number().int().positive().optional(),
  maxArtifactBytes: z.number().int().positive().optional(),
  maxLineChars: z.number().int().positive().optional(),
  maxEntries: z.number().int().positive().optional(),
  maxSearchDepth: z.number().int().positive().optional(),
  maxTaskDepth: z.number().int().positive().optional(),
  sniffBytes: z.number().int().positive().optional(),
})

export const ExpectedSchema = z.strictObject({
  run: z
    .strictObject({
      inferredProfile: AnyOf(z.string()).optional(),
      ingestLimits: IngestLimitsOverride.optional(),
    })
    .optional(),
  ingestIssues: z.array(z.strictObject({file: z.string().min(1), code: AnyOf(z.string())})).optional(),
  tasks: z.array(TaskExpectation),
})

export type Expected = z.infer<typeof ExpectedSchema>
export type TaskExpected = z.infer<typeof TaskExpectation>
export type ProfileExpected = z.infer<typeof ProfileExpectation>

/** Parses one expected.yaml document; a format error names the YAML path. */
export function parseExpected(text: string, source: string): Expected {
  return validateExpected(parse(text) as unknown, source)
}

export function validateExpected(doc: unknown, source: string): Expected {
  const result = ExpectedSchema.safeParse(doc)
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`)
    throw new Error(`${source} does not follow docs/fixtures.md:\n${lines.join('\n')}`)
  }
  const seen = new Set<string>()
  for (const t of result.data.tasks) {
    const key = `${t.taskId}#${t.attempt}`
    if (seen.has(key)) throw new Error(`${source}: ${key} is listed twice`)
    seen.add(key)
  }
  return result.data
}

/** `x` or `[x, y]` → `[x]` / `[x, y]`. */
export function anyOf<T>(value: T | readonly T[]): readonly T[] {
  return Array.isArray(value) ? (value as readonly T[]) : [value as T]
}

/** Every profile key a task's expectations name (replay, criteria, signatures), in first-seen order. */
export function profileKeys(task: TaskExpected): string[] {
  const keys = [...Object.keys(task.replay ?? {}), ...Object.keys(task.criteria ?? {}), ...Object.keys(task.signatures ?? {})]
  return [...new Set(keys)]
}

/** Explicit profiles (not `as-run`) the pipeline must replay besides its defaults. */
export function explicitProfiles(expected: Expected): string[] {
  return [...new Set(expected.tasks.flatMap(profileKeys).filter((k) => k !== 'as-run'))]
}
