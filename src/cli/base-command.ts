import {Command} from '@oclif/core/command'
import * as Errors from '@oclif/core/errors'
import {BugError, REPORT_BUG_HINT, UsageError} from '../shared/errors.js'
import {EXIT} from '../shared/exit-codes.js'
import type {Format, Presentable} from '../render/present.js'
import {printJson} from '../shared/print-json.js'
import {show} from './present.js'

type OclifError = Error & {oclif?: {exit?: number}; exitCode?: number; tryMessage?: string}

/**
 * Maps every failure onto the contract's exit codes: user mistakes 2 (no stack trace), bugs 3.
 * oclif alone would exit 1 for plain exceptions (the same code as "gate found a regression")
 * and 1 for every error under --json.
 */
export abstract class BaseCommand extends Command {
  /**
   * The one JSON document on stdout. oclif's own `logJson` tokenises the document to colour it even
   * when stdout is not a terminal, which costs ~20 ms per 200 kB; the report is plain JSON.
   */
  protected override logJson(json: unknown): void {
    printJson(json)
  }

  /**
   * A service's result on stdout (src/cli/present.ts): drawn as text, Markdown, HTML or JSON. Returns
   * what `run()` returns, the JSON document under `--json`.
   */
  protected async present(result: Presentable, format: Format, verbose = false): Promise<unknown> {
    const json = this.jsonEnabled()
    const shown = await show(result, {format: json ? 'json' : format, verbose, jsonFlag: json}, (text) => this.log(text))
    return shown.json
  }

  protected override async catch(err: OclifError): Promise<unknown> {
    if (err instanceof UsageError) {
      const message = err.tryMessage ? `${err.message}\n${err.tryMessage}` : err.message
      const usage = new Errors.CLIError(message, {exit: EXIT.usage})
      if (this.jsonEnabled()) process.exitCode = EXIT.usage
      return super.catch(usage)
    }
    if (err.oclif?.exit === undefined || err instanceof BugError) {
      const detail = process.env.GUARDKIT_REPLAY_DEBUG ? `\n${err.stack ?? ''}` : '\n(set GUARDKIT_REPLAY_DEBUG=1 for the stack trace)'
      const bug = new Errors.CLIError(`internal error: ${err.message}\n${REPORT_BUG_HINT}${detail}`, {exit: EXIT.internal})
      if (this.jsonEnabled()) process.exitCode = EXIT.internal
      return super.catch(bug)
    }
    // with --json, Command.catch sets process.exitCode = err.exitCode ?? 1; CLIError carries oclif.exit instead
    if (this.jsonEnabled()) process.exitCode = err.oclif.exit
    return super.catch(err)
  }
}
