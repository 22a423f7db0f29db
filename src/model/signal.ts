import type {Evidence} from './evidence.js'

/**
 * A record of trouble that ingest attributed to a task run (or, when no task could be named, to the
 * AutoBuild run): a WARNING/ERROR record, an INFO record of a failure shape, a Player or Coach
 * failure line, a traceback's exception line, an interrupt (docs/ingest.md, "Signals"). The signal
 * catalogue (docs/signals.md) classifies them; what no rule matches is listed, never dropped.
 */
export interface Signal {
  /** `record`: a logging record; `console`: console text (Rich status lines, tracebacks, `^C`). */
  readonly source: 'record' | 'console'
  /** The record's level (`ERROR`, `WARNING`, `INFO`, `CRITICAL`); null for console text. */
  readonly level: string | null
  /** The record's logger; `(console)` for console text. */
  readonly logger: string
  /** One line: the message (continuation lines joined by a space), cut at 400 code points. Untrusted. */
  readonly text: string
  /** The task's turn it was attributed to, when known. */
  readonly turn: number | null
  /** Where it was read; `text` holds the line to quote (the message's first line, cut). */
  readonly evidence: Evidence
  /** Identical signals (same logger, text and turn) after this one, counted instead of kept. */
  readonly repeats: number
  /**
   * `state-recovery`: read while its task's state recovery ran (after `Attempting state recovery for
   * TASK-X turn N`, before its `State recovery succeeded` or the next phase of its loop): the record is
   * the recovery's (its git and test detection), not a Coach validation's (docs/ingest.md "Signals").
   * Absent otherwise.
   */
  readonly during?: 'state-recovery'
}

/** The console's pseudo-logger (ingest counts console text under the same name). */
export const CONSOLE_LOGGER = '(console)'
