import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'
import type {Format, Presentable} from '../render/present.js'
import {neutraliseOutput} from '../shared/neutralise.js'
import {printJson} from '../shared/print-json.js'
import {UsageError} from '../shared/errors.js'
import {describeFailure, failureJson, failureText, reportFailure, unknownFlagsFailure, type CommandFacts} from './failure.js'
import {show} from './present.js'

type OclifError = Error & {oclif?: {exit?: number}; exitCode?: number; tryMessage?: string}

/**
 * Maps every failure onto the contract's exit codes: user mistakes 2 (two lines, no stack trace,
 * no help dump), bugs 3. oclif alone would exit 1 for plain exceptions (the same code as "gate
 * found a regression") and 1 for every error under --json.
 */
export abstract class BaseCommand extends Command {
  static override baseFlags = {
    quiet: Flags.boolean({char: 'q', default: false, description: 'print nothing but errors: no report on stdout (unless --json asks for it), no progress or notes on stderr; the exit code says how it went (files asked for with --out, --junit, --html are still written)'}),
  }

  /**
   * The one JSON document on stdout. oclif's own `logJson` tokenises the document to colour it even
   * when stdout is not a terminal, which costs ~20 ms per 200 kB; the report is plain JSON.
   */
  protected override logJson(json: unknown): void {
    printJson(json)
  }

  /** `--quiet` (or `-q`) before any `--`: read off argv so that it holds before and after parsing. */
  protected quiet(): boolean {
    const end = this.argv.indexOf('--')
    const argv = end === -1 ? this.argv : this.argv.slice(0, end)
    return argv.includes('--quiet') || argv.includes('-q')
  }

  /** A note for the person at the terminal (stderr), unless --quiet. */
  protected note(text: string): void {
    if (!this.quiet()) this.logToStderr(text)
  }

  /**
   * A service's result on stdout (src/cli/present.ts): drawn as text, Markdown, HTML or JSON. Returns
   * what `run()` returns, the JSON document under `--json`; --quiet prints no report but that one.
   */
  protected async present(result: Presentable, format: Format, verbose = false): Promise<unknown> {
    const json = this.jsonEnabled()
    if (this.quiet() && !json) return undefined
    const shown = await show(result, {format: json ? 'json' : format, verbose, jsonFlag: json}, (text) => this.log(text))
    return shown.json
  }

  /**
   * Messages echo what the user typed and what RUN holds (paths, task ids, option values): every
   * one is neutralised before it reaches the terminal or a CI log (src/shared/neutralise.ts, here and
   * in reportFailure). The builders of messages pass such values through neutraliseInline; this last
   * pass catches the rest.
   */
  protected override async catch(err: OclifError): Promise<unknown> {
    const failure = describeFailure(err, this.facts(), Boolean(process.env.GUARDKIT_REPLAY_DEBUG))
    process.exitCode = failure.exit
    if (this.jsonEnabled()) {
      // one rule (docs/cli.md "Output"): stdout holds one JSON document whatever happens, the error
      // document here; the message for a person goes to stderr
      printJson(failureJson(failure))
      process.stderr.write(`Error: ${neutraliseOutput(failureText(failure))}\n`)
      return undefined
    }
    throw reportFailure(failure)
  }

  /**
   * For a command with free arguments (`strict = false`): oclif hands its unknown flags over as
   * arguments, so the command names them itself, as oclif's parse error is named for the others.
   */
  protected unknownFlags(flags: readonly string[]): UsageError {
    const failure = unknownFlagsFailure(flags, this.facts())
    return new UsageError(failure.message, failure.try ?? undefined)
  }

  /** This command's name and flags, and which other commands have a flag: for suggestions. */
  private facts(): CommandFacts {
    const ctor = this.ctor as {flags?: Record<string, {char?: string}>; baseFlags?: Record<string, {char?: string}>}
    const own = {...ctor.baseFlags, ...ctor.flags}
    const names = (flags: Record<string, {char?: string}> | undefined) => Object.entries(flags ?? {}).flatMap(([name, f]) => [`--${name}`, ...(f.char ? [`-${f.char}`] : [])])
    return {
      bin: this.config.bin,
      id: (this.id ?? '').replaceAll(':', ' '),
      flags: [...names(own), ...(this.ctor.enableJsonFlag ? ['--json'] : [])],
      commandsWithFlag: (flag) =>
        this.config.commands
          .filter((c) => c.id !== this.id && !c.hidden && names(c.flags as Record<string, {char?: string}>).includes(flag))
          .map((c) => c.id.replaceAll(':', ' ')),
    }
  }
}
