// Compiles the built-in signal catalogue (npm run signals): src/explain/diagnosis/catalogue/signals.yaml
// → builtin.generated.ts (what the CLI loads) and the rule list of docs/signals.md.
import {readFileSync, writeFileSync} from 'node:fs'
import {parseSignalRules} from '../src/explain/diagnosis/catalogue/parse-rules.js'
import {CATALOGUE_FILE, DOC_MARKER} from '../src/explain/diagnosis/catalogue/files.js'
import {renderCatalogueDoc, renderCatalogueModule} from '../src/explain/diagnosis/catalogue/render-catalogue.js'

const root = new URL('../', import.meta.url)
const yaml = readFileSync(new URL(CATALOGUE_FILE, root), 'utf8')
const {rules, issues} = parseSignalRules(yaml, CATALOGUE_FILE)
if (issues.length > 0) {
  for (const i of issues) console.error(`${i.file}:${i.line}: ${i.message}`)
  process.exit(1)
}
writeFileSync(new URL('src/explain/diagnosis/catalogue/builtin.generated.ts', root), renderCatalogueModule(rules))
const docUrl = new URL('docs/signals.md', root)
const doc = readFileSync(docUrl, 'utf8')
const at = doc.indexOf(DOC_MARKER)
if (at === -1) {
  console.error(`docs/signals.md has no ${DOC_MARKER} line`)
  process.exit(1)
}
writeFileSync(docUrl, renderCatalogueDoc(rules, doc.slice(0, at + DOC_MARKER.length)))
console.log(`${rules.length} rules → builtin.generated.ts, docs/signals.md`)
