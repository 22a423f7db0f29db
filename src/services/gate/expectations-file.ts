import {readUserFile} from '../../ingest/index.js'
import {yamlNestingError} from '../../logic/python/py-yaml.js'
import {dirname, resolve} from 'node:path'
import {parse as parseYaml} from 'yaml'
import {z} from 'zod'
import {parsePin, WANTABLE_RULES, type ExpectationEntry} from '../../explain/gate/expectations.js'
import {UsageError} from '../../shared/errors.js'
import {shownPath} from './expand-paths.js'
import {neutralised} from '../../shared/neutralise.js'

const Pin = z.union([z.string(), z.array(z.string()).min(1)]).refine(
  (v) => (Array.isArray(v) ? v : [v]).every((p) => parsePin(p) !== null),
  {message: 'a pin is OUTCOME or OUTCOME@TURN (approved@1, unrecoverable_stall@5, cancelled, undetermined, not-modelled), or a list of them'},
)

const Entry = z
  .object({
    wanted: z.union([z.literal('any'), z.array(z.enum(WANTABLE_RULES as [string, ...string[]]))]).optional(),
    note: z.string().optional(),
  })
  .catchall(Pin)

const TASK_KEY = /^([^\s#]+)(?:#([1-9]\d*))?$/

const ExpectationsFile = z.strictObject({
  version: z.literal(1).optional(),
  runs: z.record(z.string(), z.record(z.string().regex(TASK_KEY, 'a task key is TASK-ID or TASK-ID#ATTEMPT'), Entry)),
})

/** An expectations.yaml, read: its entries by run (absolute path) and task. */
export interface ExpectationsFile {
  /** Relative to the working directory. */
  readonly file: string
  readonly byRun: ReadonlyMap<string, readonly TaskExpectation[]>
}

export interface TaskExpectation {
  readonly taskId: string
  /** null: every attempt of the task. */
  readonly attempt: number | null
  readonly entry: ExpectationEntry
}

/**
 * Reads a corpus's expectations.yaml (docs/ci.md, "expectations.yaml"): `runs: {RUN: {TASK[#ATTEMPT]:
 * {PROFILE: PIN, wanted: [rule, …], note: …}}}`, RUN relative to the file's folder. A bad file is a
 * usage error naming the key (a misspelt key must not be silently ignored).
 */
export async function readExpectations(abs: string, cwd: string): Promise<ExpectationsFile> {
  const file = shownPath(abs, cwd)
  let data: unknown
  try {
    const text = await readUserFile(abs)
    const deep = yamlNestingError(text)
    if (deep !== null) throw new Error(deep)
    data = parseYaml(text)
  } catch (error) {
    throw new UsageError(neutralised`${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  const parsed = ExpectationsFile.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    // a record key that fails its pattern reports only "Invalid key in record"
    const message = issue.code === 'invalid_key' ? 'a task key is TASK-ID or TASK-ID#ATTEMPT' : issue.message
    throw new UsageError(neutralised`${file}: /${issue.path.join('/')}: ${message}`, 'Expected `runs: {RUN: {TASK-ID[#ATTEMPT]: {PROFILE: OUTCOME[@TURN], wanted: [rule, …], note: text}}}` (docs/ci.md).')
  }
  const byRun = new Map<string, TaskExpectation[]>()
  for (const [runKey, tasks] of Object.entries(parsed.data.runs)) {
    const runAbs = resolve(dirname(abs), runKey.replace(/\/+$/, ''))
    const list: TaskExpectation[] = []
    for (const [taskKey, raw] of Object.entries(tasks)) {
      const m = TASK_KEY.exec(taskKey)!
      const {wanted, note, ...pins} = raw as {wanted?: string[] | 'any'; note?: string} & Record<string, string | string[]>
      list.push({
        taskId: m[1]!,
        attempt: m[2] === undefined ? null : Number(m[2]),
        entry: {
          file,
          key: `${runKey} / ${taskKey}`,
          pins: Object.fromEntries(Object.entries(pins).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])),
          wanted: wanted ?? [],
          note: note ?? null,
        },
      })
    }
    byRun.set(runAbs, list)
  }
  return {file, byRun}
}

