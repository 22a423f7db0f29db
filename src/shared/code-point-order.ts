/**
 * Code-point order, as Python's sorted() on str. JS's default sort compares UTF-16 code units,
 * which puts astral characters (emoji) before U+E000..U+FFFF; Python does not.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0
  const la = a.length
  const lb = b.length
  let i = 0
  let j = 0
  while (i < la && j < lb) {
    const ca = a.codePointAt(i)!
    const cb = b.codePointAt(j)!
    if (ca !== cb) return ca < cb ? -1 : 1
    i += ca > 0xffff ? 2 : 1
    j += cb > 0xffff ? 2 : 1
  }
  if (i < la) return 1
  if (j < lb) return -1
  return 0
}

/** A stable sort that never mutates its input. */
export function stableSortBy<T>(items: readonly T[], compare: (a: T, b: T) => number): T[] {
  return items
    .map((item, index) => ({item, index}))
    .sort((x, y) => compare(x.item, y.item) || x.index - y.index)
    .map((x) => x.item)
}
