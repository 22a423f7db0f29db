// Prints how the diagnosis does on the authored held-out set (fixtures/diagnosis, docs/root-causes.md "How it is
// measured"): per class, the runs whose primary cause is the expected one (and one a case also accepts), then
// every run that disagrees.
//   node --import tsx scripts/diagnosis/fixtures.ts [--verbose] [CASE…]
import {fileURLToPath} from 'node:url'
import {diagnosisFixtures, measureCase, readCases, tabulateCases} from './fixture-agreement.js'

const args = process.argv.slice(2)
const verbose = args.includes('--verbose')
const only = args.filter((a) => !a.startsWith('--'))
const cases = readCases(fileURLToPath(diagnosisFixtures)).filter((c) => only.length === 0 || only.includes(c.name))
const results = []
for (const c of cases) results.push(await measureCase(c))
console.log(`${'class'.padEnd(22)}${'agree'.padStart(10)}${'acceptable'.padStart(12)}`)
for (const r of tabulateCases(results)) console.log(`${r.category.padEnd(22)}${`${r.agree}/${r.cases}`.padStart(10)}${`${r.acceptable}/${r.cases}`.padStart(12)}`)
for (const r of results) {
  if (r.agree && !verbose) continue
  console.log(`\n${r.agree ? '✓' : r.acceptable ? '~' : '✗'} ${r.case.name}: expected ${r.case.expected}, tool ${r.found ? (r.primary ?? '(no diagnosis)') : '(task run not found)'} [${r.confidence ?? '-'}]`)
  if (r.summary) console.log(`    ${r.summary.slice(0, 400)}`)
}
