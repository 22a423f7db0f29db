import type {CommandSpec} from './invariants.js'
import type {ExtraCommand} from './model/types.js'

/**
 * The commands a case runs. In-process: `analyze --json`, `inspect --json` and the case's extra command
 * (text or Markdown output, the default command, profiles and flags, explain, whatif). Through the
 * built CLI: `analyze --json` and the extra command (or `inspect --json` when there is none).
 * Flag values go as `--flag=value`, so an id that starts with a dash stays a value.
 */

export const analyzeJson = (run: string): CommandSpec => ({name: 'analyze --json', argv: ['analyze', run, '--json'], json: true, text: false})
export const inspectJson = (run: string): CommandSpec => ({name: 'inspect --json', argv: ['inspect', run, '--json'], json: true, text: false})

/** `firstTask`: the first task analyze reported, for `explain` without a chosen task. */
export function extraSpec(extra: ExtraCommand, run: string, firstTask: string | null): CommandSpec {
  switch (extra.cmd) {
    case 'analyze': {
      const argv = ['analyze', run, '--format', extra.format, ...(extra.verbose ? ['--verbose'] : [])]
      return {name: argv.filter((a) => a !== run).join(' '), argv, json: false, text: extra.format === 'text'}
    }
    case 'default':
      // `guardkit-replay RUN`: only with a path that cannot be taken for a flag or a command
      return run.startsWith('/') ? {name: 'RUN --json (default command)', argv: [run, '--json'], json: true, text: false} : analyzeJson(run)
    case 'analyze-profiles': {
      const flags = [...extra.profiles.map((p) => `--profile=${p}`), ...extra.with.map((f) => `--with=${f}`), ...extra.without.map((f) => `--without=${f}`)]
      return {name: `analyze --json ${flags.join(' ')}`, argv: ['analyze', run, '--json', ...flags], json: true, text: false}
    }
    case 'explain': {
      const flags = [`--task=${extra.task ?? firstTask ?? 'TASK-X-001'}`, ...(extra.turn === null ? [] : [`--turn=${extra.turn}`]), ...(extra.json ? ['--json'] : [])]
      return {name: `explain ${flags.join(' ')}`, argv: ['explain', run, ...flags], json: extra.json, text: !extra.json}
    }
    case 'whatif': {
      const flags = [...(extra.task === null ? [] : [`--task=${extra.task}`]), ...(extra.json ? ['--json'] : [])]
      return {name: `whatif ${flags.join(' ')}`.trim(), argv: ['whatif', run, ...flags], json: extra.json, text: !extra.json}
    }
  }
}
