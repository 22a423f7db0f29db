import {EXIT, type ExitCode} from './exit-codes.js'

/**
 * A problem the user can fix (a flag, a path, an empty RUN). Rendered without a stack trace,
 * with what to try next; exits 2.
 */
export class UsageError extends Error {
  readonly exitCode: ExitCode = EXIT.usage
  constructor(
    message: string,
    readonly tryMessage?: string,
  ) {
    super(message)
    this.name = 'UsageError'
  }
}

/** A broken invariant inside guardkit-replay: exits 3 and asks for a report. */
export class BugError extends Error {
  readonly exitCode: ExitCode = EXIT.internal
  constructor(message: string, options?: {cause?: unknown}) {
    super(message, options)
    this.name = 'BugError'
  }
}

export const REPORT_BUG_HINT =
  'This is a bug in guardkit-replay. Please report it with the command you ran and, if you can, the run (see `guardkit-replay record --help` for a redacted copy).'
