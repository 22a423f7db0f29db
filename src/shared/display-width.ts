import {createRequire} from 'node:module'

/**
 * Columns a string takes on a terminal, by `string-width` (grapheme clusters, East Asian width,
 * emoji, zero-width marks): `漢字` is 4, `👍🏽` 2, `é` (e + combining accent) 1. Counting code points
 * instead misaligns tables holding CJK names or emoji (docs/cli.md "Terminal width").
 *
 * Most of every report is ASCII and a few narrow symbols (`·`, `✓`, `—`, `…`, box drawing): a string
 * made only of those is one column a code point, which a unit test checks against string-width for
 * every such code point. Only other text loads string-width, on first use: loading it builds an
 * Intl.Segmenter, ~30 ms of start-up that a report without CJK or emoji never pays.
 */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length
  if (NARROW.test(text)) return codePoints(text)
  return stringWidth()(text)
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

/**
 * Code points string-width counts as one column each, and that never join a neighbour into one
 * grapheme: printable ASCII, Latin-1 and Latin Extended letters (not the soft hyphen), general
 * punctuation (no zero-width or direction marks, no separators), arrows, mathematical operators, box
 * drawing, block elements and geometric shapes (not the two drawn as emoji), and the check marks the
 * report uses.
 */
export const NARROW = /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2200-\u22ff\u2500-\u25fc\u25ff\u2713\u2717]*$/

function codePoints(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0xd800 || c > 0xdbff) n++
  }
  return n
}

let measure: ((text: string) => number) | undefined

/** string-width, loaded the first time a string needs it (an ES module, required synchronously). */
function stringWidth(): (text: string) => number {
  measure ??= (createRequire(import.meta.url)('string-width') as {default: (text: string) => number}).default
  return measure
}

let segmenter: Intl.Segmenter | undefined

/** The user-perceived characters of a string: a cut never splits one (an emoji, a letter with its accent). */
export function graphemes(text: string): string[] {
  if (NARROW.test(text)) return Array.from(text)
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
