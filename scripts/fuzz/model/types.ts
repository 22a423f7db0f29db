/**
 * The fuzzer's model of a RUN directory (scripts/fuzz/README.md): plain data, so that a shrunk case prints as a
 * JSON literal that a regression test can hold, and so that a case costs little to send to a worker.
 * Contents are rendered to bytes only when the case is written to disk (render-content.ts).
 */

/**
 * Text or bytes, assembled: a string is written as UTF-8 (a lone surrogate becomes U+FFFD, as Node
 * writes it), `hex` is raw bytes (invalid UTF-8, NUL), `repeat` keeps megabyte lines and 10 000-level
 * nestings small in the model.
 */
export type Piece = string | {readonly hex: string} | {readonly repeat: Piece; readonly count: number} | readonly Piece[]

/** A file's content before damage. */
export type Content =
  /** A file of fixtures/runs/, by its path below that folder (real shapes: logs, artifacts, task files). */
  | {readonly kind: 'fixture'; readonly file: string}
  /** `JSON.stringify(value, null, 2)`. */
  | {readonly kind: 'json'; readonly value: unknown}
  | {readonly kind: 'pieces'; readonly pieces: Piece}
  /** Lines of two fixture files interleaved in blocks (two tasks, or two captures, writing at once). */
  | {readonly kind: 'interleave'; readonly a: string; readonly b: string; readonly block: number}
  /**
   * A recording manifest (docs/recording-format.md) listing other entries of the case; `sha` is
   * `auto` (the file's real sha256 once written), `stale` (a valid but wrong one) or a literal.
   */
  | {
      readonly kind: 'manifest'
      readonly files: readonly {readonly path: string; readonly sha: string}[]
      readonly versions: readonly {readonly path: string; readonly file: string; readonly version: unknown; readonly sha: string | null}[]
      readonly gaps: readonly {readonly path: string; readonly message: string}[]
      readonly extra: Readonly<Record<string, unknown>>
    }

/** Damage done to a file's bytes after rendering, in order. */
export type Damage =
  /** Keep the first `at mod (length + 1)` bytes (a cut capture, a half-written file). */
  | {readonly op: 'truncate'; readonly at: number}
  /** Insert bytes at `at mod (length + 1)`. */
  | {readonly op: 'insert'; readonly at: number; readonly piece: Piece}
  /** Keep `count` lines from line `from mod lines`. */
  | {readonly op: 'lines'; readonly from: number; readonly count: number}
  | {readonly op: 'crlf'}
  | {readonly op: 'cr'}
  | {readonly op: 'bom'}
  /** The whole text re-encoded as UTF-16LE with its BOM (a Windows editor). */
  | {readonly op: 'utf16le'}
  /** UTF-16 without a byte-order mark (little-endian), or big-endian with one. */
  | {readonly op: 'utf16le-nobom'}
  | {readonly op: 'utf16be'}
  /** A range of bytes written again further on (a rewritten or re-attached capture). */
  | {readonly op: 'duplicate'; readonly from: number; readonly length: number; readonly at: number}

export type Entry =
  | {readonly type: 'file'; readonly path: string; readonly content: Content; readonly damage: readonly Damage[]; readonly mode?: number}
  | {readonly type: 'dir'; readonly path: string; readonly mode?: number}
  /**
   * `target` is written as the link's text; `<outside>` stands for the sibling folder outside RUN
   * (which also holds a log and a worktree), `<run>` for RUN's absolute path.
   */
  | {readonly type: 'symlink'; readonly path: string; readonly target: string}
  | {readonly type: 'fifo'; readonly path: string}
  /** `count` empty files named `prefix0…` in `path` (a crowded folder). */
  | {readonly type: 'many'; readonly path: string; readonly prefix: string; readonly count: number}

/** A command run beside `analyze --json` and `inspect --json`. */
export type ExtraCommand =
  | {readonly cmd: 'analyze'; readonly format: 'text' | 'md'; readonly verbose: boolean}
  /** `guardkit-replay RUN --json` (the default command). */
  | {readonly cmd: 'default'}
  | {readonly cmd: 'analyze-profiles'; readonly profiles: readonly string[]; readonly with: readonly string[]; readonly without: readonly string[]}
  /** `task: null`: the first task `analyze --json` reported (or a made-up id when none). */
  | {readonly cmd: 'explain'; readonly task: string | null; readonly turn: number | null; readonly json: boolean}
  | {readonly cmd: 'whatif'; readonly task: string | null; readonly json: boolean}

/** How RUN is named on the command line. */
export type RunArg =
  | {readonly as: 'absolute'}
  /** Through a symbolic link to RUN's folder. */
  | {readonly as: 'symlink'}
  /** Relative to its parent folder, the working directory (the built CLI only; in-process uses absolute). */
  | {readonly as: 'relative'; readonly dotSlash: boolean}
  /** A file of RUN given as RUN (a single log): the `pick mod n`-th file, link or FIFO entry. */
  | {readonly as: 'file'; readonly pick: number}

export interface RunCase {
  /** RUN's own folder name (spaces, colons, unicode, a leading dash …). */
  readonly runName: string
  readonly entries: readonly Entry[]
  readonly arg: RunArg
  readonly extra: ExtraCommand | null
  /** Whether the case also goes through the built CLI (`node bin/run.js`) as a real process. */
  readonly cli: boolean
}
