// Prints how well the diagnosis agrees with the maintainers' labels (docs/root-causes.md):
//   node --import tsx scripts/corpus/diagnoses.ts CORPUS [--verbose]
// CORPUS the shared corpus folder (its logs/, diagnoses/logs/, labels and outcomes);
// per category (develop / held-out / all), the confusion pairs, the labelled runs not recovered (or in a file
// the tool does not take for a capture), the failed runs with no named cause and those whose category the
// records cannot decide, and the approved runs diagnosed as failures.
import {measureAgreement, tabulate} from './agreement.js'

const args = process.argv.slice(2)
const verbose = args.includes('--verbose')
const corpus = args.find((a) => !a.startsWith('--'))
if (corpus === undefined) {
  console.error('usage: node --import tsx scripts/corpus/diagnoses.ts CORPUS [--verbose]')
  process.exit(2)
}
const a = await measureAgreement(corpus)

const pct = (n: number, d: number) => (d === 0 ? '–' : `${Math.round((100 * n) / d)}%`)
console.log('agreement of diagnosis.primary with the labels: agree/labelled (found = recovered by ingest and not ended approved)')
const rows = tabulate(a)
const cell = (category: string, split: string) => {
  const r = rows.find((x) => x.category === category && x.split === split)
  return r === undefined ? '–' : `${r.agree}/${r.labelled}${r.found < r.labelled ? ` (${r.found} found)` : ''} ${pct(r.agree, r.labelled)}`
}
console.log(`${'category'.padEnd(22)}${'develop'.padStart(24)}${'held-out'.padStart(24)}${'all'.padStart(24)}`)
for (const category of [...new Set(rows.map((r) => r.category))].sort((x, y) => (x === '(all)' ? 1 : y === '(all)' ? -1 : x < y ? -1 : 1))) {
  console.log(`${category.padEnd(22)}${cell(category, 'develop').padStart(24)}${cell(category, 'held-out').padStart(24)}${cell(category, 'all').padStart(24)}`)
}
const pairs = new Map<string, number>()
for (const r of a.labels) if (r.state === 'found' && !r.agree) pairs.set(`${r.label.primary} → ${r.primary ?? '(none)'}`, (pairs.get(`${r.label.primary} → ${r.primary ?? '(none)'}`) ?? 0) + 1)
console.log('\nconfusion (label → tool):')
for (const [k, n] of [...pairs].sort((x, y) => y[1] - x[1])) console.log(`  ${String(n).padStart(3)}  ${k}`)
const silent = a.labels.filter((r) => r.state === 'found' && (r.primary === null || r.primaryCode === 'CAUSE_NOT_RECORDED'))
console.log(`\nfailed runs with no named cause (no diagnosis, or CAUSE_NOT_RECORDED: the records name none): ${silent.length}`)
for (const r of silent) console.log(`  ${r.label.log} ${r.label.taskId}#${r.label.attempt} (label ${r.label.primary})`)
const undecided = a.labels.filter((r) => r.state === 'found' && r.primary === 'unknown' && r.primaryCode !== 'CAUSE_NOT_RECORDED')
console.log(`\nfailed runs with a named cause whose category the records cannot decide (primary category unknown): ${undecided.length}`)
for (const r of undecided) console.log(`  ${r.label.log} ${r.label.taskId}#${r.label.attempt} (label ${r.label.primary}): ${r.primaryCode}`)
const missing = a.labels.filter((r) => r.state !== 'found')
console.log(`\nlabelled runs not recovered by ingest, or in a file it does not take for a capture: ${missing.length}`)
for (const r of missing) console.log(`  ${r.label.log} ${r.label.taskId}#${r.label.attempt}: ${r.state}`)
const approved = a.approved.filter((r) => r.state === 'found')
const asFailure = approved.filter((r) => r.asFailure)
console.log(`\napproved runs diagnosed as failures: ${asFailure.length} of ${approved.length} (${pct(asFailure.length, approved.length)}); not recovered: ${a.approved.length - approved.length}`)
for (const r of asFailure) console.log(`  ${r.log} ${r.taskId}#${r.occurrence}: ${r.why ?? ''}`)
if (verbose) {
  console.log('\nevery labelled run:')
  for (const r of a.labels) console.log(`  ${r.agree ? '✓' : '✗'} [${r.split}] ${r.label.log} ${r.label.taskId}#${r.label.attempt} label=${r.label.primary} tool=${r.primary ?? r.state}\n      ${r.summary ?? ''}`)
}
