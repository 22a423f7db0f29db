import {fc, test} from '../../helpers/prop.js'
import {describe, expect, it} from 'vitest'
import {agreeingSubset} from '../../../src/replay/agreeing-subset.js'
import {runs} from '../../helpers/arbitraries/index.js'

/**
 * The markers kept when they contradict (docs/era-markers.md: "set aside, least attested first"):
 * the fast test of each removal must choose exactly what testing every rest in full chooses.
 */
interface M {
  readonly id: string
  readonly count: number
  readonly lo: number
  readonly hi: number
}

/** The rule as docs/era-markers.md states it, each candidate's rest tested in full. */
function reference(all: readonly M[], floor: number, ceiling: number): {kept: M[]; dropped: M[]} {
  const kept = [...all]
  const dropped: M[] = []
  const empty = (list: readonly M[]) => Math.max(floor, ...list.map((m) => m.lo)) > Math.min(ceiling, ...list.map((m) => m.hi))
  while (kept.length > 1 && empty(kept)) {
    const ranked = [...kept].sort((a, b) => a.count - b.count || (a.id < b.id ? -1 : 1))
    const victim = ranked.find((c) => !empty(kept.filter((k) => k !== c))) ?? ranked[0]!
    kept.splice(kept.indexOf(victim), 1)
    dropped.push(victim)
  }
  return {kept, dropped}
}

// ranges within the bounds mostly, and some outside them or reversed (high before low): the rule must hold for any
const marker = fc.record({id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), count: fc.integer({min: 1, max: 4}), lo: fc.integer({min: -2, max: 10}), span: fc.integer({min: -2, max: 6})})
const markers = fc.array(marker, {maxLength: 14}).map((list) => list.map(({id, count, lo, span}, i) => ({id: `${id}${i % 3}`, count, lo, hi: lo + span})))

describe('agreeingSubset', () => {
  test.prop([markers, fc.boolean()], runs(500))('keeps and drops exactly the markers the rule does, in the same order', (list, bounded) => {
    const [floor, ceiling] = bounded ? [0, 8] : [-Infinity, Infinity]
    const got = agreeingSubset(list, (m) => m.lo, (m) => m.hi, floor, ceiling)
    const want = reference(list, floor, ceiling)
    expect(got.kept).toEqual(want.kept)
    expect(got.dropped).toEqual(want.dropped)
  })

  it('sets aside the least attested marker that contradicts the rest, not the first least attested', () => {
    const often = {id: 'often', count: 9, lo: 2, hi: 5}
    const rare = {id: 'rare', count: 1, lo: 3, hi: 4}
    const odd = {id: 'odd', count: 2, lo: 6, hi: 8}
    const {kept, dropped} = agreeingSubset([often, rare, odd], (m) => m.lo, (m) => m.hi, 0, 8)
    // removing `rare` leaves 2–5 against 6–8: still empty; removing `odd` leaves 3–4
    expect(dropped).toEqual([odd])
    expect(kept).toEqual([often, rare])
  })
})
