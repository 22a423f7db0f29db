import {test} from '../../helpers/prop.js'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {mergeGateReports} from '../../../src/services/gate-merge.js'
import {parseShard, shardOf} from '../../../src/services/gate/subjects.js'
import {UsageError} from '../../../src/shared/errors.js'
import {gateReport, gateRun, gateTask} from '../../helpers/gate.js'

describe('--shard i/n', () => {
  it('is 1-based, i ≤ n; anything else is a usage error', () => {
    expect(parseShard('2/4')).toEqual({index: 2, count: 4})
    expect(parseShard(undefined)).toBeNull()
    for (const bad of ['0/4', '5/4', '1/0', '2', 'a/b', '1/2/3', '-1/2']) expect(() => parseShard(bad)).toThrow(UsageError)
  })

  test.prop([fc.uniqueArray(fc.string({minLength: 1, maxLength: 8}), {maxLength: 60}), fc.integer({min: 1, max: 9})], {numRuns: 200})(
    'splits the sorted corpus into disjoint shards whose union is the corpus, the same on every machine',
    (paths, count) => {
      const sorted = [...paths].sort()
      const shards = Array.from({length: count}, (_, i) => shardOf(sorted, {index: i + 1, count}))
      expect(shards.flat().sort()).toEqual(sorted)
      expect(new Set(shards.flat()).size).toBe(sorted.length)
      // sizes differ by at most one
      const sizes = shards.map((s) => s.length)
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
      expect(shardOf(sorted, {index: 1, count})).toEqual(shardOf([...sorted], {index: 1, count}))
    },
  )
})

describe('gate merge', () => {
  const regressed = gateTask({taskId: 'TASK-B', classification: 'regressed', failing: true, reasons: [{rule: 'approval-lost', effect: 'regression', turn: 1, message: 'm', approximate: false}]})
  const runs = [gateRun('a', [gateTask()]), gateRun('b', [regressed]), gateRun('c', [gateTask({classification: 'improved'})]), gateRun('d', [gateTask()], {skipReason: null})]
  const whole = gateReport(runs)
  const shard = (index: number, count: number) => gateReport(shardOf(runs, {index, count}), {shard: {index, count}})

  it('merging every shard gives the unsharded report, field for field (but for shard/merged)', () => {
    for (const count of [1, 2, 3, 4]) {
      const parts = Array.from({length: count}, (_, i) => shard(i + 1, count)).reverse()
      const merged = mergeGateReports(parts, parts.map((_, i) => `s${i}.json`))
      expect({...merged, merged: null}).toEqual(whole)
      expect(merged.merged).toEqual({shards: count, files: parts.map((_, i) => `s${i}.json`)})
      expect(merged.verdict).toBe('fail')
      expect(merged.summary).toMatchObject({runs: 4, tasks: 4, regressed: 1, improved: 1, unchanged: 2, failing: 1})
    }
  })

  it('refuses a missing shard, a shard given twice, overlapping runs, and shards of another gate', () => {
    expect(() => mergeGateReports([shard(1, 3), shard(3, 3)], ['1', '3'])).toThrow(/Shard 2\/3 missing/)
    expect(() => mergeGateReports([shard(1, 2), shard(1, 2)], ['x', 'y'])).toThrow(/both shard 1\/2/)
    expect(() => mergeGateReports([whole, whole], ['x', 'y'])).toThrow(/in both x and y/)
    const other = gateReport(shardOf(runs, {index: 2, count: 2}), {shard: {index: 2, count: 2}, candidate: {name: 'my-change', kind: 'profile', description: 'd', flags: []}})
    expect(() => mergeGateReports([shard(1, 2), other], ['x', 'y'])).toThrow(/y is not a shard of the same gate as x: its candidate differs/)
    const strict = gateReport(shardOf(runs, {index: 2, count: 2}), {shard: {index: 2, count: 2}, policy: {failOn: ['changed']}})
    expect(() => mergeGateReports([shard(1, 2), strict], ['x', 'y'])).toThrow(/policy differs/)
    expect(() => mergeGateReports([shard(1, 2), shard(2, 3)], ['x', 'y'])).toThrow(/shard count differs/)
    expect(() => mergeGateReports([shard(1, 2), whole], ['x', 'y'])).toThrow(/sharded or not/)
  })

  // a shard report whose runs were deleted once merged without a word: the verdict then covered a corpus that was not gated
  it('refuses a shard report that lacks runs it was given, naming them; or whose summary counts runs it does not hold', () => {
    const given = (index: number, count: number) => {
      const mine = shardOf(runs, {index, count})
      return gateReport(mine, {shard: {index, count, runs: mine.map((r) => r.path)}})
    }
    expect(mergeGateReports([given(1, 2), given(2, 2)], ['x', 'y']).summary.runs).toBe(4)
    const gutted = {...given(2, 2), runs: given(2, 2).runs.filter((r) => r.path !== 'b')}
    expect(() => mergeGateReports([given(1, 2), gutted], ['x', 'y'])).toThrow(/y is missing a run its shard was given: b\. A merged verdict needs every run/)
    // a report without the list (written before it was added): its own summary still counts what it held
    const old = {...shard(2, 2), runs: shard(2, 2).runs.filter((r) => r.path !== 'b')}
    expect(() => mergeGateReports([shard(1, 2), old], ['x', 'y'])).toThrow(/y does not hold what its summary counts: 1 runs and 1 tasks, its summary 2 runs and 2 tasks/)
  })

  it('refuses shards that split different corpora', () => {
    const a = gateReport(shardOf(runs, {index: 1, count: 2}), {shard: {index: 1, count: 2, runs: ['a', 'c']}})
    const b = gateReport([gateRun('d', [gateTask()])], {shard: {index: 2, count: 2, runs: ['d']}})
    expect(() => mergeGateReports([a, b], ['x', 'y'])).toThrow(/the shards were not run on the same corpus/)
  })

  it('merges unsharded reports of different corpora as a union', () => {
    const merged = mergeGateReports([gateReport(runs.slice(0, 2)), gateReport(runs.slice(2))], ['x', 'y'])
    expect(merged.runs.map((r) => r.path)).toEqual(['a', 'b', 'c', 'd'])
    expect(merged.merged).toEqual({shards: 2, files: ['x', 'y']})
  })
})
