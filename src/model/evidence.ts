/**
 * Where a value came from: a log line, or a JSON pointer into an artifact. Paths are relative to
 * RUN (or the log's name when RUN is a single file), so reports are the same wherever RUN lives.
 */
export interface Evidence {
  readonly file: string
  /** 1-based physical line in `file`. */
  readonly line?: number
  /** RFC 6901 JSON pointer into `file`. */
  readonly pointer?: string
  /** A short quote or note, when the line alone would not say enough. */
  readonly note?: string
  /** The line's text as read (log evidence), for reports that quote what proves a claim; untrusted. */
  readonly text?: string
}

/** A recorded value and every place it was read from. */
export interface Fact<T> {
  readonly value: T
  readonly evidence: readonly Evidence[]
}

export function fact<T>(value: T, ...evidence: Evidence[]): Fact<T> {
  return {value, evidence}
}
