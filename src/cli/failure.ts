import {BugError, REPORT_BUG_HINT, UsageError} from '../shared/errors.js'
import {EXIT} from '../shared/exit-codes.js'
import {neutraliseOutput} from '../shared/neutralise.js'
import {didYouMean} from '../shared/suggest.js'

/** What went wrong, for a person (stderr) and for a script (the `--json` error document). */
export interface Failure {
  readonly code: 'usage' | 'internal'
  readonly exit: number
  readonly message: string
  /** What to run or change next; null when the message says it. */
  readonly try: string | null
}

/** The command as the user typed it, and what it accepts: for suggestions and the "try" line. */
export interface CommandFacts {
  readonly bin: string
  /** `analyze`, `gate merge`. */
  readonly id: string
  /** Long flag names with their one-letter forms: `['--verbose', '-v', …]`. */
  readonly flags: readonly string[]
  /** Other commands that have a flag of this name: `--task` → `explain, whatif, compare`. */
  readonly commandsWithFlag: (flag: string) => readonly string[]
}

type OclifError = Error & {oclif?: {exit?: number}; parse?: unknown; flags?: unknown; args?: unknown; tryMessage?: string}

/**
 * Every failure of a command as the contract's exit code and two short lines (docs/cli.md "Exit
 * codes", "Conventions"): a user's mistake exits 2 with what was wrong and a "try" line — oclif's own
 * parse errors included, which would print the whole help —; anything else is a bug (exit 3).
 */
export function describeFailure(err: OclifError, command: CommandFacts, debug: boolean): Failure {
  const help = `${command.bin} ${command.id} --help`
  if (err instanceof UsageError) return {code: 'usage', exit: EXIT.usage, message: err.message, try: err.tryMessage ?? null}
  if (err.parse !== undefined) return parseFailure(err, command, help)
  if (err.oclif?.exit === undefined || err instanceof BugError) {
    const detail = debug ? `\n${err.stack ?? ''}` : '\n(set GUARDKIT_REPLAY_DEBUG=1 for the stack trace)'
    return {code: 'internal', exit: EXIT.internal, message: `internal error: ${err.message}`, try: `${REPORT_BUG_HINT}${detail}`}
  }
  // this.error(…, {exit}) and oclif's own CLIErrors: already a message for the user
  return {code: err.oclif.exit === EXIT.internal ? 'internal' : 'usage', exit: err.oclif.exit, message: err.message, try: null}
}

/** oclif's parse errors, without the help dump oclif would print after them. */
function parseFailure(err: OclifError, command: CommandFacts, help: string): Failure {
  const message = err.message.replace(/\nSee more help with --help$/, '')
  const tryHelp = `Try: ${help}`
  if (Array.isArray(err.flags) && message.startsWith('Nonexistent flag')) {
    return unknownFlagsFailure(err.flags as string[], command)
  }
  const option = /^Expected --([\w-]+)=(.*) to be one of: (.*)$/s.exec(message)
  if (option !== null) {
    const options = option[3]!.split(', ')
    return {code: 'usage', exit: EXIT.usage, message: `--${option[1]} ${option[2]}: not one of ${options.join(', ')}.${didYouMean(option[2]!, options)}`, try: tryHelp}
  }
  if (Array.isArray(err.args) && message.startsWith('Missing')) {
    const args = err.args as {name?: string; description?: string}[]
    const named = args.map((a) => `${(a.name ?? '').replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}${a.description === undefined ? '' : `: ${a.description}`}`)
    return {code: 'usage', exit: EXIT.usage, message: `${command.id} needs ${named.join('; and ')}.`, try: tryHelp}
  }
  return {code: 'usage', exit: EXIT.usage, message: message.replace(/^The following errors? occurred:\n\s*/, ''), try: tryHelp}
}

/**
 * Flags the command does not have (`--verbse`, `--task=X`), one line each with the flag meant and the
 * commands that have it: for oclif's parse error and for commands that take free arguments
 * (`strict = false`), whose unknown flags oclif passes on as arguments.
 */
export function unknownFlagsFailure(flags: readonly string[], command: CommandFacts): Failure {
  const lines = flags.map((f) => {
    const name = f.replace(/=.*$/, '')
    const elsewhere = command.commandsWithFlag(name)
    const there = elsewhere.length === 0 ? '' : ` (${name} belongs to ${elsewhere.map((c) => `\`${command.bin} ${c}\``).join(', ')})`
    return `${command.id} has no flag ${name}.${didYouMean(name, command.flags)}${there}`
  })
  return {code: 'usage', exit: EXIT.usage, message: lines.join('\n'), try: `Try: ${command.bin} ${command.id} --help`}
}

/**
 * Prints the failure on stderr as `Error: …` and its "try" line, unwrapped (oclif's own printer would
 * wrap it at 80 columns behind ` ›   `), and returns the error for oclif to exit with: marked so
 * that oclif does not print it again.
 */
export function reportFailure(f: Failure, stderr: {write(text: string): unknown} = process.stderr): Error {
  // messages quote names from RUN and argv: no control character reaches the terminal, no line a CI runner reads as a command
  stderr.write(`Error: ${neutraliseOutput(failureText(f))}\n`)
  const error = new Error(failureText(f)) as Error & {oclif: {exit: number}; skipOclifErrorHandling: boolean}
  error.oclif = {exit: f.exit}
  error.skipOclifErrorHandling = true
  return error
}

/** The two lines on stderr. */
export function failureText(f: Failure): string {
  return f.try === null ? f.message : `${f.message}\n${f.try}`
}

/** The `--json` error document (docs/json-schema.md "Errors"). */
export function failureJson(f: Failure): {error: {code: string; exit: number; message: string; try: string | null}} {
  return {error: {code: f.code, exit: f.exit, message: f.message, try: f.try}}
}
