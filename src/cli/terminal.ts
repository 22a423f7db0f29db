/**
 * Whether to colour stdout: never with NO_COLOR (https://no-color.org) or when stdout is not a
 * terminal, always with FORCE_COLOR (except FORCE_COLOR=0).
 */
export function colourEnabled(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
  return stream.isTTY === true && env.TERM !== 'dumb'
}

/** Columns to lay text out in: the terminal's, or 100 when stdout is not a terminal. */
export function outputWidth(stream: NodeJS.WriteStream = process.stdout): number {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : 100
}
