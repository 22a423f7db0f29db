/**
 * Whether to colour stdout: never with NO_COLOR (https://no-color.org) or when stdout is not a
 * terminal, always with FORCE_COLOR (except FORCE_COLOR=0).
 */
export function colourEnabled(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
  return stream.isTTY === true && env.TERM !== 'dumb'
}

/**
 * Columns to lay text out in (docs/cli.md "Terminal width"): the terminal's when stdout is one;
 * otherwise COLUMNS when it is set (`COLUMNS=80 guardkit-replay run.log | less`), else no limit at
 * all (Infinity): a report piped to a file or another program is not wrapped.
 */
export function outputWidth(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): number {
  if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0) return stream.columns
  const columns = Number.parseInt(env.COLUMNS ?? '', 10)
  return Number.isFinite(columns) && columns > 0 ? columns : Number.POSITIVE_INFINITY
}
