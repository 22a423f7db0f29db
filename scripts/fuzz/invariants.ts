import {ReportSchema} from '../../src/render/json/report.js'

/**
 * What every command must do on any RUN (docs/json-schema.md, docs/cli.md): exit 0 or 2,
 * never 3 (a bug) or anything else; no stack trace on stderr; with `--json` exactly one JSON document
 * on stdout (the contract's report when the command succeeded); text for a pipe free of terminal
 * control sequences. That RUN is unchanged on disk is checked by the caller (check-case.ts).
 */

export interface CommandSpec {
  /** Short name for reports: `analyze --json`, `explain --turn 2`, … */
  readonly name: string
  readonly argv: readonly string[]
  /** `--json`: stdout must be one JSON document. */
  readonly json: boolean
  /** Plain text for a pipe (format text): no control characters but newline and tab. */
  readonly text: boolean
}

export interface CommandOutcome {
  /** Exit code (null when killed by a signal). */
  readonly exit: number | null
  readonly signal: string | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
  readonly timedOut: boolean
}

/** A line of a V8 stack trace: `    at fn (file.js:1:2)`, `    at file.js:1:2`, `    at async …`. */
const STACK_LINE = /^\s+at (?:async )?(?:\S.*\(.*(?::\d+:\d+|<anonymous>|native)\)|\S*:\d+:\d+)\s*$/m
/** C0 controls but tab and newline, DEL, and the 8-bit CSI: what could drive a terminal. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f\x9b]/

export function checkOutcome(spec: CommandSpec, out: CommandOutcome): string[] {
  const failures: string[] = []
  const say = (what: string) => failures.push(`${spec.name}: ${what}`)
  if (out.timedOut) say(`did not finish within its time limit (${Math.round(out.ms / 1000)} s)`)
  else if (out.signal !== null) say(`killed by ${out.signal}${tail(out.stderr)}`)
  else if (out.exit === 3) say(`exit 3 (internal error)${tail(out.stderr)}`)
  else if (out.exit !== 0 && out.exit !== 2) say(`exit ${out.exit} (only 0 or 2 are allowed)${tail(out.stderr)}`)
  if (STACK_LINE.test(out.stderr)) say(`a stack trace on stderr${tail(out.stderr)}`)
  if (spec.json && !out.timedOut && out.signal === null) failures.push(...checkJson(spec, out))
  if (spec.text && out.exit === 0) {
    const m = CONTROL.exec(out.stdout)
    if (m) say(`a control character ${JSON.stringify(m[0])} on stdout at offset ${m.index}: …${JSON.stringify(out.stdout.slice(Math.max(0, m.index - 40), m.index + 20))}…`)
  }
  if (!out.timedOut && out.signal === null) {
    const m = CONTROL.exec(out.stderr)
    if (m) say(`a control character ${JSON.stringify(m[0])} on stderr at offset ${m.index}: …${JSON.stringify(out.stderr.slice(Math.max(0, m.index - 40), m.index + 20))}…`)
    for (const [stream, text] of [['stdout', out.stdout], ['stderr', out.stderr]] as const) {
      const line = workflowCommand(text)
      if (line !== null) say(`a line on ${stream} a CI runner would read as a workflow command: ${JSON.stringify(line.slice(0, 160))}`)
    }
  }
  return failures
}

/**
 * A line GitHub Actions (first non-blank characters `::`) or an older runner or Azure Pipelines (`##[`,
 * `##vso[` anywhere) would act on; the commands never print one (docs/security.md).
 */
export function workflowCommand(text: string): string | null {
  for (const line of text.split('\n')) if (/^[\s\ufeff]*::/.test(line) || /##(?:vso)?\[/i.test(line)) return line
  return null
}

function checkJson(spec: CommandSpec, out: CommandOutcome): string[] {
  if (out.stdout.trim() === '') return [`${spec.name}: --json printed nothing on stdout (exit ${out.exit})`]
  let doc: unknown
  try {
    doc = JSON.parse(out.stdout)
  } catch (error) {
    return [`${spec.name}: stdout is not one JSON document (${(error as Error).message}); it starts ${JSON.stringify(out.stdout.slice(0, 120))}`]
  }
  if (out.exit === 0) {
    const parsed = ReportSchema.safeParse(doc)
    if (!parsed.success) {
      const first = parsed.error.issues.slice(0, 3).map((i) => `/${i.path.join('/')}: ${i.message}`)
      return [`${spec.name}: the JSON document is not the contract's report: ${first.join('; ')}`]
    }
  }
  return []
}

function tail(stderr: string): string {
  const lines = stderr.trim().split('\n').slice(0, 8)
  return lines.length === 0 || lines[0] === '' ? '' : `\n      stderr: ${lines.join('\n              ').slice(0, 1500)}`
}

/** The first task id of an analyze document (for `explain`), or null. */
export function firstTaskId(stdout: string): string | null {
  try {
    const doc = JSON.parse(stdout) as {tasks?: {taskId?: unknown}[]}
    const id = doc.tasks?.[0]?.taskId
    return typeof id === 'string' ? id : null
  } catch {
    return null
  }
}

/** Ingest issue codes of an analyze document (statistics: which hostile paths the cases reached). */
export function issueCodes(stdout: string): string[] {
  try {
    const doc = JSON.parse(stdout) as {ingestIssues?: {code?: unknown}[]}
    return (doc.ingestIssues ?? []).map((i) => (typeof i.code === 'string' ? i.code : '?'))
  } catch {
    return []
  }
}
