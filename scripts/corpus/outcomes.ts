/**
 * Prints the corpus check of recorded outcomes per GuardKit era (test/corpus/outcomes.test.ts runs
 * the same check): `node --import tsx scripts/corpus/outcomes.ts CORPUS [--json] [--misses] [--notes]`,
 * CORPUS the shared corpus folder (its logs/, diagnoses/logs/, diagnoses/outcomes.json and labels.json).
 */
import {checkCorpus} from './corpus-outcomes.js'
import {eraTable} from './outcome-check.js'

const args = process.argv.slice(2)
const corpus = args.find((a) => !a.startsWith('--'))
if (corpus === undefined) {
  console.error('usage: node --import tsx scripts/corpus/outcomes.ts CORPUS [--json] [--misses] [--notes]')
  process.exit(2)
}
const checks = await checkCorpus(corpus)
if (args.includes('--json')) {
  console.log(JSON.stringify(checks, null, 1))
} else {
  console.log(eraTable(checks))
  if (args.includes('--misses') || args.includes('--notes')) {
    for (const c of checks) for (const m of [...c.outcomes.misses, ...c.labels.misses]) console.log(`miss: ${m}`)
    if (args.includes('--notes')) for (const c of checks) for (const n of [...c.outcomes.notes, ...c.labels.notes]) console.log(`rule: ${n}`)
  }
}
