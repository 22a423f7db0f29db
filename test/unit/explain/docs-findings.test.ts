import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {CODE_CLASSES} from '../../../src/explain/diagnosis/code-classes.js'
import {FINDING_CODES} from '../../../src/model/finding.js'

const doc = readFileSync(new URL('../../../docs/findings.md', import.meta.url), 'utf8')

describe('docs/findings.md', () => {
  it.each(FINDING_CODES)('has an entry for %s with its cause, seed, evidence rule, example, remediation and fixedIn', (code) => {
    const start = doc.indexOf(`\n## ${code}\n`)
    expect(start, code).toBeGreaterThan(0)
    const next = doc.indexOf('\n## ', start + 1)
    const entry = doc.slice(start, next === -1 ? undefined : next)
    for (const field of ['**Cause:**', '**Seed:**', '**Evidence rule:**', '**Example:**', '**Remediation:**', '**Fixed in:**']) expect(entry, `${code} ${field}`).toContain(field)
  })
})

describe('docs/findings.md, categories', () => {
  it.each(FINDING_CODES)('gives %s the category, stage and role the diagnosis uses', (code) => {
    const c = CODE_CLASSES[code]
    expect(doc).toContain(`| \`${code}\` | \`${c.category}\` | \`${c.stage}\` | ${c.role} |`)
  })
})
