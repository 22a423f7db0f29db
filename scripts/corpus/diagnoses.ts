// Prints how well the diagnosis agrees with the maintainers' labels (docs/root-causes.md):
//   node --import tsx scripts/corpus/diagnoses.ts CORPUS [--verbose]
// CORPUS the shared corpus folder (its logs/, diagnoses/logs/, labels and outcomes);
// per category (develop / held-out / all), the confusion pairs, the labelled runs not recovered (or in a file
// the tool does not take for a capture), the failed runs with no named cause and those whose category the
// records cannot decide, and the approved runs diagnosed as failures.
import {describeAgreement, measureAgreement} from './agreement.js'

const args = process.argv.slice(2)
const verbose = args.includes('--verbose')
const corpus = args.find((a) => !a.startsWith('--'))
if (corpus === undefined) {
  console.error('usage: node --import tsx scripts/corpus/diagnoses.ts CORPUS [--verbose]')
  process.exit(2)
}
console.log(describeAgreement(await measureAgreement(corpus), verbose))
