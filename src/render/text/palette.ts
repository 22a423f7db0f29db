import {Chalk, type ChalkInstance} from 'chalk'
import {PLAIN, type Palette} from './plain-palette.js'

export {PLAIN, type Palette}

/** chalk's colours (basic 16-colour codes), or none: renderers stay pure and never read the terminal. */
export function createPalette(enabled: boolean): Palette {
  if (!enabled) return PLAIN
  const chalk: ChalkInstance = new Chalk({level: 1})
  return {
    enabled,
    bold: (s) => chalk.bold(s),
    dim: (s) => chalk.dim(s),
    red: (s) => chalk.red(s),
    green: (s) => chalk.green(s),
    yellow: (s) => chalk.yellow(s),
    cyan: (s) => chalk.cyan(s),
    magenta: (s) => chalk.magenta(s),
  }
}
