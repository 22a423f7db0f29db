// Regenerates the docs that are derived from code (npm run docs).
import {writeFileSync} from 'node:fs'
import {renderLogicChangesMarkdown} from '../src/render/markdown/logic-changes.js'

writeFileSync(new URL('../docs/logic-changes.md', import.meta.url), renderLogicChangesMarkdown())
console.log('wrote docs/logic-changes.md')
