// Plain JS (no build step) so both entries can use it before oclif loads.

/** Top-level command and topic names. A unit test checks this against oclif's command list. */
export const TOP_LEVEL = ['analyze', 'inspect', 'explain', 'whatif', 'gate', 'compare', 'record', 'live', 'conformance', 'profiles', 'help']
export const DEFAULT_COMMAND = 'analyze'

/**
 * `guardkit-replay RUN` means `guardkit-replay analyze RUN`: oclif 4 has no default command for
 * multi-command CLIs, so the argv is rewritten before oclif sees it.
 * @param {string[]} argv process.argv.slice(2)
 * @returns {string[]}
 */
export function withDefaultCommand(argv) {
  const first = argv[0]
  if (first === undefined) return argv
  if (first === '-') return [DEFAULT_COMMAND, ...argv]
  if (first.startsWith('-')) return argv
  if (TOP_LEVEL.includes(first)) return argv
  return [DEFAULT_COMMAND, ...argv]
}
