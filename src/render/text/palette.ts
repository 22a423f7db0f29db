import {Chalk, type ChalkInstance} from 'chalk'

/** The colours the text renderers use; plain when colour is off, so renderers stay pure. */
export interface Palette {
  readonly enabled: boolean
  bold(s: string): string
  dim(s: string): string
  red(s: string): string
  green(s: string): string
  yellow(s: string): string
  cyan(s: string): string
  magenta(s: string): string
}

export function createPalette(enabled: boolean): Palette {
  const chalk: ChalkInstance = new Chalk({level: enabled ? 1 : 0})
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

export const PLAIN: Palette = createPalette(false)
