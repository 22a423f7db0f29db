/** How much of RUN ingest reads; each limit reached is an ingest issue, never a crash (docs/ingest.md). */
export interface IngestLimits {
  /**
   * Logs larger than this are read up to it (the rest is reported, not read). No cap by default: a
   * log is streamed, so its size bounds the time taken, not the memory (docs/ingest.md "Limits").
   */
  readonly maxLogBytes: number
  /** JSON and YAML artifacts and task files larger than this are skipped. */
  readonly maxArtifactBytes: number
  /** Log and markdown lines longer than this (UTF-16 units) are cut. */
  readonly maxLineChars: number
  /** Directory entries looked at while searching RUN, in total. */
  readonly maxEntries: number
  /** Entries of one folder looked at (the first, by name): a task folder with 100 000 files is not read whole. */
  readonly maxFolderEntries: number
  /** How deep below RUN logs and worktree copies are searched (RUN's own files are depth 1). */
  readonly maxSearchDepth: number
  /** How deep below `tasks/` task files are searched. */
  readonly maxTaskDepth: number
  /** Bytes of a candidate log read to decide whether it holds AutoBuild output. */
  readonly sniffBytes: number
}

export const DEFAULT_LIMITS: IngestLimits = {
  maxLogBytes: Number.POSITIVE_INFINITY,
  maxArtifactBytes: 64 * 1024 * 1024,
  maxLineChars: 1024 * 1024,
  maxEntries: 50_000,
  maxFolderEntries: 5_000,
  maxSearchDepth: 3,
  maxTaskDepth: 6,
  sniffBytes: 256 * 1024,
}

/** The file that marks a recording made by `record` or `live` (docs/recording-format.md). */
export const RECORDING_MANIFEST_NAME = 'guardkit-replay.json'
