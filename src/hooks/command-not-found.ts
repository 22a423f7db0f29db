import type {Hook} from '@oclif/core/hooks'
import {reportFailure} from '../cli/failure.js'
import {EXIT} from '../shared/exit-codes.js'
import {closest} from '../shared/suggest.js'

/**
 * A first word that is neither a command nor a file or folder, but close to a command name
 * (bin/argv.js leaves those to oclif): say so and name the command meant, in two lines, instead of
 * oclif's "command X not found" or analyze's "RUN not found" (docs/cli.md "Conventions").
 */
const hook: Hook.CommandNotFound = async function (options) {
  const bin = options.config.bin
  const ids = options.config.commandIDs.map((id) => id.replaceAll(':', ' '))
  // oclif joins the words after the first into the id (`explian:run.log`) when topics are spaced
  const [first = '', second] = options.id.split(':')
  const typed = second !== undefined && options.config.topics.some((t) => t.name === first) ? `${first} ${second}` : first
  const near = closest(typed, ids, 2)
  const mean = near.length === 0 ? '' : ` Did you mean ${near.map((n) => `\`${n}\``).join(' or ')}?`
  const tryLine = near.length === 0 ? `Try: ${bin} --help (every command), or give RUN: ${bin} analyze RUN` : `Try: ${bin} ${near[0]} --help`
  throw reportFailure({code: 'usage', exit: EXIT.usage, message: `\`${typed}\` is not a ${bin} command, nor a file or folder.${mean}`, try: tryLine})
}

export default hook
