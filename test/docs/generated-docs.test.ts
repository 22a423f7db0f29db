import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {renderLogicChangesMarkdown} from '../../src/render/markdown/logic-changes.js'
import {LOGIC_CHANGES} from '../../src/logic/changes.js'

describe('docs/logic-changes.md', () => {
  it('is up to date with the registry (run `npm run docs`)', () => {
    const committed = readFileSync(new URL('../../docs/logic-changes.md', import.meta.url), 'utf8')
    expect(committed).toBe(renderLogicChangesMarkdown())
  })
  it('has one entry per flag', () => {
    const committed = readFileSync(new URL('../../docs/logic-changes.md', import.meta.url), 'utf8')
    for (const c of LOGIC_CHANGES) expect(committed).toContain(`\n## ${c.id}\n`)
  })
})
