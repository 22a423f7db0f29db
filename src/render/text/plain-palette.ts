/**
 * The colours the text renderers use, and the palette without colour. Kept apart from chalk
 * (palette.ts) so that output to a pipe or a file never loads it.
 */
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

const same = (s: string): string => s

export const PLAIN: Palette = {enabled: false, bold: same, dim: same, red: same, green: same, yellow: same, cyan: same, magenta: same}
