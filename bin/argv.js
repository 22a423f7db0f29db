// Plain JS (no build step) so both entries can use it before oclif loads.
import {existsSync} from 'node:fs'

/** Top-level command and topic names. A unit test checks this against oclif's command list. */
export const TOP_LEVEL = ['analyze', 'inspect', 'explain', 'whatif', 'gate', 'compare', 'record', 'live', 'conformance', 'profiles', 'help']
export const DEFAULT_COMMAND = 'analyze'

/** Flags that stand for the whole invocation, not for a command's run: left where they are. */
const GLOBAL_FLAGS = ['--help', '-h', '--version']

/** Words people type for a flag: `guardkit-replay version` is `guardkit-replay --version`. */
const WORD_FLAGS = {version: '--version'}

/**
 * `guardkit-replay RUN` means `guardkit-replay analyze RUN`: oclif 4 has no default command for
 * multi-command CLIs, so the argv is rewritten before oclif sees it (docs/cli.md "Conventions"):
 * - a command name first is left alone; so is a first word that is not an existing file or folder
 *   but is close to a command name (`gaet`, `explian`): oclif then says it is not a command and
 *   suggests the one meant, instead of "RUN not found";
 * - flags may come before RUN or the command (`--json run.log`, `--json explain run.log …`): the
 *   command word is moved to the front;
 * - `version` (when no such file exists) is `--version`;
 * - anything else is RUN: `analyze` goes in front.
 * @param {string[]} argv process.argv.slice(2)
 * @param {(path: string) => boolean} [exists] whether a file or folder of that name exists
 * @returns {string[]}
 */
export function withDefaultCommand(argv, exists = existsSync) {
  const first = argv[0]
  if (first === undefined) return argv
  if (first === '-') return [DEFAULT_COMMAND, ...argv]
  if (first.startsWith('-')) {
    if (GLOBAL_FLAGS.includes(first)) return argv
    const end = argv.includes('--') ? argv.indexOf('--') : argv.length
    const at = argv.slice(0, end).findIndex((a) => TOP_LEVEL.includes(a) || isTypo(a, exists))
    if (at === -1) return [DEFAULT_COMMAND, ...argv]
    return [argv[at], ...argv.slice(0, at), ...argv.slice(at + 1)]
  }
  if (TOP_LEVEL.includes(first)) return argv
  if (Object.hasOwn(WORD_FLAGS, first) && !exists(first)) return [WORD_FLAGS[first], ...argv.slice(1)]
  if (isTypo(first, exists)) return argv
  return [DEFAULT_COMMAND, ...argv]
}

/**
 * A word that names no file or folder and is a few edits from a command name: a mistyped command.
 * @param {string} word
 * @param {(path: string) => boolean} exists
 */
function isTypo(word, exists) {
  if (word.startsWith('-') || word.includes('/') || word.includes('.')) return false
  return TOP_LEVEL.some((c) => editDistance(word, c) <= typoBudget(word)) && !exists(word)
}

/**
 * The measure of src/shared/suggest.ts (a unit test keeps the two in step): edits between two words,
 * a swap of neighbours counting one, case folded.
 * @param {string} a
 * @param {string} b
 */
export function editDistance(a, b) {
  const s = a.toLowerCase()
  const t = b.toLowerCase()
  const rows = []
  for (let i = 0; i <= s.length; i++) rows.push([i, ...new Array(t.length).fill(0)])
  for (let j = 0; j <= t.length; j++) rows[0][j] = j
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1)
      rows[i][j] = d
    }
  }
  return rows[s.length][t.length]
}

/** @param {string} word */
export function typoBudget(word) {
  return word.length <= 4 ? 1 : Math.max(2, Math.floor(word.length / 3))
}
