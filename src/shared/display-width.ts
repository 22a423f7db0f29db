import stringWidth from 'string-width'

/**
 * Columns a string takes on a terminal, by `string-width` (grapheme clusters, East Asian width,
 * emoji, zero-width marks; colour codes ignored): `漢字` is 4, `👍🏽` 2, `é` (e + combining accent) 1.
 * Counting code points instead misaligns tables holding CJK names or emoji. Printable ASCII, most of
 * every report, skips the library (docs/cli.md "Terminal width").
 */
export function displayWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text)
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

let segmenter: Intl.Segmenter | undefined

/** The user-perceived characters of a string: a cut never splits one (an emoji, a letter with its accent). */
export function graphemes(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return text.split('')
  segmenter ??= new Intl.Segmenter(undefined, {granularity: 'grapheme'})
  return Array.from(segmenter.segment(text), (s) => s.segment)
}

/** The longest start of `text` (plain, no colour codes) that takes at most `width` columns. */
export function takeWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  let out = ''
  let used = 0
  for (const g of graphemes(text)) {
    const w = displayWidth(g)
    if (used + w > width) break
    out += g
    used += w
  }
  return out
}
