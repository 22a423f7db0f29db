// Prints how well the diagnosis agrees with the maintainers' labels (docs/root-causes.md):
//   node --import tsx scripts/corpus/diagnoses.ts [CORPUS] [--verbose]
// per category (develop / held-out / all), the confusion pairs, the labelled runs not recovered, the
// failed runs with no primary cause, and the approved runs diagnosed as failures.
import {fileURLToPath} from 'node:url'
import {measureAgreement, tabulate} from './agreement.js'

const args = process.argv.slice(2)
const verbose = args.includes('--verbose')
const corpus = args.find((a) => !a.startsWith('--')) ?? fileURLToPath(new URL('../../../shared/corpus', import.meta.url))
const a = await measureAgreement(corpus)

const pct = (n: number, d: number) => (d === 0 ? '–' : `${Math.round((100 * n) / d)}%`)
console.log('agreement of diagnosis.primary with the labels (found = the labelled run was recovered and did not end approved)')
console.log(`${'category'.padEnd(22)}${'split'.padEnd(10)}${'labelled'.padStart(9)}${'found'.padStart(7)}${'agree'.padStart(7)}${'of found'.padStart(10)}${'of all'.padStart(8)}`)
for (const r of tabulate(a)) {
  if (r.split !== 'all' && r.category !== '(all)') continue
  console.log(`${r.category.padEnd(22)}${r.split.padEnd(10)}${String(r.labelled).padStart(9)}${String(r.found).padStart(7)}${String(r.agree).padStart(7)}${pct(r.agree, r.found).padStart(10)}${pct(r.agree, r.labelled).padStart(8)}`)
}
const pairs = new Map<string, number>()
for (const r of a.labels) if (r.state === 'found' && !r.agree) pairs.set(`${r.label.primary} → ${r.primary ?? '(none)'}`, (pairs.get(`${r.label.primary} → ${r.primary ?? '(none)'}`) ?? 0) + 1)
console.log('\nconfusion (label → tool):')
for (const [k, n] of [...pairs].sort((x, y) => y[1] - x[1])) console.log(`  ${String(n).padStart(3)}  ${k}`)
const silent = a.labels.filter((r) => r.state === 'found' && (r.primary === null || r.primary === 'unknown'))
console.log(`\nfailed runs with no primary cause (silent or unknown): ${silent.length}`)
for (const r of silent) console.log(`  ${r.label.log} ${r.label.taskId}#${r.label.attempt} (label ${r.label.primary})`)
const missing = a.labels.filter((r) => r.state !== 'found')
console.log(`\nlabelled runs not recovered by ingest: ${missing.length}`)
for (const r of missing) console.log(`  ${r.label.log} ${r.label.taskId}#${r.label.attempt}: ${r.state}`)
const approved = a.approved.filter((r) => r.state === 'found')
const asFailure = approved.filter((r) => r.asFailure)
console.log(`\napproved runs diagnosed as failures: ${asFailure.length} of ${approved.length} (${pct(asFailure.length, approved.length)}); not recovered: ${a.approved.length - approved.length}`)
for (const r of asFailure) console.log(`  ${r.log} ${r.taskId}#${r.occurrence}: ${r.why ?? ''}`)
if (verbose) {
  console.log('\nevery labelled run:')
  for (const r of a.labels) console.log(`  ${r.agree ? '✓' : '✗'} [${r.split}] ${r.label.log} ${r.label.taskId}#${r.label.attempt} label=${r.label.primary} tool=${r.primary ?? r.state}\n      ${r.summary ?? ''}`)
}
