/**
 * Progress for long work, on stderr so that stdout stays the report (or the one JSON document).
 * Shown only when stderr is a terminal and not in CI; each step overwrites the last, and `done`
 * clears the line before the report is printed.
 */
export interface Progress {
  step(message: string): void
  done(): void
}

/** No progress at all (`--quiet`). */
export const SILENT: Progress = {step: () => undefined, done: () => undefined}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): Progress {
  if (stream.isTTY !== true || (env.CI !== undefined && env.CI !== '' && env.CI !== 'false') || env.TERM === 'dumb') return SILENT
  let shown = false
  return {
    step(message) {
      const width = Math.max(20, (stream.columns ?? 80) - 1)
      stream.write(`\r\x1b[2K${[...message].slice(0, width).join('')}`)
      shown = true
    },
    done() {
      if (shown) stream.write('\r\x1b[2K')
      shown = false
    },
  }
}
