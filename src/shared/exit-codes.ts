/** Exit codes of the contract (docs/cli.md): the same with and without --json. */
export const EXIT = {
  ok: 0,
  /** `gate` found a regression; `conformance` found a failing or unsupported vector. */
  failed: 1,
  /** Usage or input error: bad flag, missing/unreadable RUN, nothing recognisable in RUN. */
  usage: 2,
  /** A bug in guardkit-replay. */
  internal: 3,
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]
