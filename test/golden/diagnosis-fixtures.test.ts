import {fileURLToPath} from 'node:url'
import {beforeAll, describe, expect, it} from 'vitest'
import {diagnosisFixtures, measureCase, readCases, tabulateCases, type CaseResult} from '../../scripts/diagnosis/fixture-agreement.js'

// The authored held-out set of the diagnosis (fixtures/diagnosis, docs/fixtures.md "Diagnosis fixtures"): runs of
// every failure class of docs/root-causes.md in the record shapes of each GuardKit era, each with the primary
// cause its case.yaml expects, written from the category definitions before the tool was run on it. Every case
// must get its expected category (or one the case also accepts, for a reason it states); a case marked `open`
// names what the records cannot decide, and only counts in the floor. scripts/diagnosis/fixtures.ts prints the
// table per class.
const cases = readCases(fileURLToPath(diagnosisFixtures))
const results = new Map<string, CaseResult>()

beforeAll(async () => {
  for (const c of cases) results.set(c.name, await measureCase(c))
}, 240_000)

describe('the authored held-out set of the diagnosis (fixtures/diagnosis)', () => {
  it('covers every failure class of docs/root-causes.md but unknown, and every era', () => {
    expect(new Set(cases.map((c) => c.expected)).size).toBeGreaterThanOrEqual(20)
    expect([...new Set(cases.map((c) => c.era))].sort()).toEqual([
      'december-2025-january-2026', 'february-2026', 'july-august-2026', 'june-2026', 'late-january-early-february-2026', 'march-may-2026',
    ])
  })

  it.each(cases.filter((c) => c.open === null).map((c) => [c.name, c] as const))('%s: names the expected primary cause', (name) => {
    const r = results.get(name)!
    expect(r.found, `${name}: the task run ${r.case.taskId} is not in the report`).toBe(true)
    expect(r.acceptable, `${name}: expected ${[r.case.expected, ...r.case.alsoAcceptable].join(' or ')}, the tool named ${r.primary ?? '(no diagnosis)'} — ${r.summary ?? ''}\n  why expected: ${r.case.why}`).toBe(true)
  })

  it('treats none of the approved task runs beside them as a failure', () => {
    const approved = [...results.values()].flatMap((r) => r.approved.map((a) => ({...a, fixture: r.case.name})))
    expect(approved.length).toBeGreaterThan(3)
    expect(approved.filter((a) => a.asFailure)).toEqual([])
  })

  it('agrees with the expected category on at least 41 of the runs, and names some cause for every one', () => {
    const all = tabulateCases([...results.values()]).find((r) => r.category === '(all)')!
    expect(all.agree).toBeGreaterThanOrEqual(41)
    expect([...results.values()].filter((r) => r.primary === null).map((r) => r.case.name)).toEqual([])
  })
})
