/** A marker placed on a range (of eras, of commits), by how many records show it. */
export interface Ranged {
  readonly id: string
  readonly count: number
}

/**
 * Drops the least-attested markers until the rest agree on a non-empty range (docs/era-markers.md): while
 * the latest start is past the earliest end, the first marker by count (then id) whose removal
 * leaves a non-empty range goes, or, when no single removal does, the least attested. `floor` and
 * `ceiling` bound the range as an empty list of markers would.
 *
 * Each removal is tested in constant time from the two largest starts and the two smallest ends: a
 * log of many runs carries dozens of contradicting markers, and it is placed again at every attempt
 * of a streamed read (docs/performance.md "Throughput").
 */
export function agreeingSubset<T extends Ranged>(all: readonly T[], low: (m: T) => number, high: (m: T) => number, floor: number, ceiling: number): {kept: T[]; dropped: T[]} {
  const kept = [...all]
  const dropped: T[] = []
  for (;;) {
    if (kept.length <= 1) break
    const ends = extremes(kept, low, high, floor, ceiling)
    if (ends.maxLow <= ends.minHigh) break
    const ranked = [...kept].sort((a, b) => a.count - b.count || (a.id < b.id ? -1 : 1))
    const victim = ranked.find((c) => !emptyWithout(ends, low(c), high(c))) ?? ranked[0]!
    kept.splice(kept.indexOf(victim), 1)
    dropped.push(victim)
  }
  return {kept, dropped}
}

interface Extremes {
  readonly maxLow: number
  /** How many markers start at maxLow. */
  readonly atMaxLow: number
  /** The largest start below maxLow (or the floor). */
  readonly nextLow: number
  readonly minHigh: number
  readonly atMinHigh: number
  readonly nextHigh: number
}

function extremes<T>(list: readonly T[], low: (m: T) => number, high: (m: T) => number, floor: number, ceiling: number): Extremes {
  let maxLow = floor
  let atMaxLow = 0
  let nextLow = floor
  let minHigh = ceiling
  let atMinHigh = 0
  let nextHigh = ceiling
  for (const m of list) {
    const l = low(m)
    if (l > maxLow) {
      nextLow = maxLow
      maxLow = l
      atMaxLow = 1
    } else if (l === maxLow) atMaxLow++
    else if (l > nextLow) nextLow = l
    const h = high(m)
    if (h < minHigh) {
      nextHigh = minHigh
      minHigh = h
      atMinHigh = 1
    } else if (h === minHigh) atMinHigh++
    else if (h < nextHigh) nextHigh = h
  }
  return {maxLow, atMaxLow, nextLow, minHigh, atMinHigh, nextHigh}
}

/** Whether the range is still empty once one marker (starting at `l`, ending at `h`) is taken out. */
function emptyWithout(e: Extremes, l: number, h: number): boolean {
  const maxLow = l === e.maxLow && e.atMaxLow === 1 ? e.nextLow : e.maxLow
  const minHigh = h === e.minHigh && e.atMinHigh === 1 ? e.nextHigh : e.minHigh
  return maxLow > minHigh
}
