import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {checkCorpus} from '../../scripts/corpus/corpus-outcomes.js'
import {eraTable, type LogCheck} from '../../scripts/corpus/outcome-check.js'

/**
 * The corpus check of recorded outcomes in every GuardKit era (scripts/corpus/outcome-check.ts):
 * every `Orchestration complete` record of the 62 real logs of ../shared/corpus (logs/ and
 * diagnoses/logs/, as listed in diagnoses/outcomes.json) is recovered at its line with its task,
 * outcome and turn count, and every failed task run of diagnoses/labels.json (task, n-th run,
 * outcome, turns) is recovered. The three rules that account for a record without recovering it
 * again (a re-printed run read once; a run killed from outside GuardKit; a document that quotes
 * records, which is no capture) are the check's own, keyed on what the ingest reports, never on a file.
 */
const corpus = fileURLToPath(new URL('../../../shared/corpus', import.meta.url))

describe('corpus: recorded outcomes in every era', () => {
  it('finds the shared corpus', () => {
    expect(existsSync(`${corpus}/diagnoses/outcomes.json`), `${corpus}/diagnoses/outcomes.json is missing`).toBe(true)
  })

  let checks: LogCheck[] = []
  it('recovers every outcome record and every labelled failed task of every log', async () => {
    checks = await checkCorpus(corpus)
    console.log(`corpus outcomes per era:\n${eraTable(checks)}`)
    expect(checks.length).toBeGreaterThanOrEqual(62)
    expect(checks.flatMap((c) => [...c.outcomes.misses, ...c.labels.misses])).toEqual([])
    const sum = (f: (c: LogCheck) => number) => checks.reduce((n, c) => n + f(c), 0)
    // the floor: everything in the corpus, accounted for
    expect(sum((c) => c.outcomes.recovered + c.outcomes.explained)).toBe(sum((c) => c.outcomes.expected))
    expect(sum((c) => c.labels.recovered + c.labels.explained)).toBe(sum((c) => c.labels.expected))
    expect(sum((c) => c.labels.expected)).toBe(88)
  }, 120_000)

  it('accounts for a record by rule only where the ingest says why', () => {
    for (const c of checks) {
      for (const note of [...c.outcomes.notes, ...c.labels.notes]) expect(note).toMatch(/a re-print of the record at line \d+|the same run printed again|stopped from outside GuardKit|quoted by a document the ingest does not read as a capture/)
    }
    // the rules cover a handful of records, never a whole era
    expect(checks.reduce((n, c) => n + c.outcomes.explained + c.labels.explained, 0)).toBeLessThan(10)
  })

  it('places every log in an era of the timeline', () => {
    expect(checks.filter((c) => c.era === 'era not determined').map((c) => c.log)).toEqual([])
    // a document quoting records is no capture (docs/ingest.md): at most the one the corpus holds
    expect(checks.filter((c) => c.era === 'not a capture').length).toBeLessThanOrEqual(1)
  })
})
