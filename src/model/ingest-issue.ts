/**
 * A problem with the input that did not stop ingest: the report lists it, and analysis goes on
 * with what could be read. `expected` issues are facts of the format (e.g. a log that ends during a
 * turn) rather than damage.
 */
export interface IngestIssue {
  readonly file: string
  readonly line?: number
  readonly pointer?: string
  readonly message: string
  readonly severity: 'error' | 'warning' | 'info'
  /** Stable kebab-case id: json-invalid, json-shape, truncated, binary, unreadable, empty, symlink-outside, too-long-line, conflict, unrecognised-records, … */
  readonly code: string
}
