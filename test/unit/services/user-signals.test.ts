import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {loadSignalCatalogue} from '../../../src/services/user-signals.js'

const dir = mkdtempSync(join(tmpdir(), 'gr-signals-'))
function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
const RULE = `version: 1
rules:
  - id: site.proxy
    category: model-api
    stage: model-call
    match: {pattern: 'corp proxy \\d+ refused'}
    summary: 'the company proxy refused the call'
    means: 'The proxy in front of the model API refused the call.'
    action: 'Ask the network team.'
    examples:
      - 'ERROR:guardkit.orchestrator.agent_invoker:[TASK-A-1] corp proxy 9 refused'
`

describe('--signals FILE (docs/signals.md)', () => {
  it('puts the user\'s rules before the built-in ones', async () => {
    const catalogue = (await loadSignalCatalogue(file('ok.yaml', RULE)))!
    expect(catalogue.classify({logger: 'guardkit.orchestrator.agent_invoker', level: 'ERROR', text: '[TASK-A-1] corp proxy 9 refused'})?.id).toBe('site.proxy')
    // and the built-in ones still classify what the user's do not
    expect(catalogue.classify({logger: '(console)', level: null, text: 'Player failed: Unexpected error: Agent player received API error: authentication_failed'})?.id).toBe('model-api.authentication')
    expect(await loadSignalCatalogue(undefined)).toBeUndefined()
  })

  it('refuses the file (exit 2) naming every problem with its file and line: the schema, and an example its rule does not classify', async () => {
    const bad = file('bad.yaml', `${RULE}      - 'ERROR:guardkit.orchestrator.agent_invoker:[TASK-A-1] something else'
  - id: site.bad
    category: nope
    stage: model-call
    match: {pattern: 'x'}
    summary: s
    means: m
    action: a
    examples: ['x']
`)
    const error = await loadSignalCatalogue(bad).catch((e: unknown) => e as Error & {exitCode?: number})
    expect(error).toMatchObject({message: expect.stringContaining(`${bad}: 2 problems in the signal rules:`)})
    expect((error as Error).message).toContain(`${bad}:12: rule site.proxy: example 2 is not classified by the rule: its signal reads "[TASK-A-1] something else", which the pattern does not match`)
    expect((error as Error).message).toMatch(new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:14: rule site.bad: /category `))
  })

  it('says so when the file cannot be read', async () => {
    await expect(loadSignalCatalogue(join(dir, 'missing.yaml'))).rejects.toThrow(/Cannot read the signal rules file .*missing\.yaml \(ENOENT\)/)
  })
})
