import {describe, expect, it} from 'vitest'
import {lintPlanted} from './lint-planted.js'

/** Lint a planted file as if it lived at `path`; returns the rule ids that fired. */
async function rulesFired(path: string, code: string): Promise<string[]> {
  return (await lintPlanted(path, code)).map((m) => m.rule)
}

describe('the lint enforces the architecture (docs/architecture.md)', () => {
  it.each([
    {name: 'fs in logic', path: 'src/logic/planted.ts', code: "import {readFileSync} from 'node:fs'\nexport const x = readFileSync\n"},
    {name: 'process in replay', path: 'src/replay/planted.ts', code: 'export const x = process.env.HOME\n'},
    {name: 'the clock in explain', path: 'src/explain/planted.ts', code: 'export const x = Date.now()\n'},
    {name: 'new Date() in the text renderer', path: 'src/render/text/planted.ts', code: 'export const x = new Date()\n'},
    {name: 'randomness in logic', path: 'src/logic/planted.ts', code: 'export const x = Math.random()\n'},
    {name: 'randomUUID in the JSON renderer', path: 'src/render/json/planted.ts', code: "import {randomUUID} from 'node:crypto'\nexport const x = randomUUID\n"},
    {name: 'a timer in the Markdown renderer', path: 'src/render/markdown/planted.ts', code: 'export const x = setTimeout\n'},
  ])('rejects $name', async ({path, code}) => {
    const fired = await rulesFired(path, code)
    expect(fired.some((r) => r.startsWith('no-restricted'))).toBe(true)
  })

  it('rejects an upward import (logic importing replay)', async () => {
    const fired = await rulesFired('src/logic/planted.ts', "import type {Fidelity} from '../replay/types.js'\nexport type X = Fidelity\n")
    expect(fired).toContain('no-restricted-imports')
  })

  it('keeps ingest behind its front door: services may not reach into ingest/log', async () => {
    const fired = await rulesFired('src/services/planted.ts', "import {createLogIngest} from '../ingest/log/ingest.js'\nexport const x = createLogIngest\n")
    expect(fired).toContain('no-restricted-imports')
    const live = await rulesFired('src/live/planted.ts', "import {parsePythonJson} from '../ingest/artifacts/parse-json.js'\nexport const x = parsePythonJson\n")
    expect(live).toContain('no-restricted-imports')
  })

  it('lets other layers import ingest through its front door', async () => {
    const fired = await rulesFired('src/services/gate/planted.ts', "import {readRun} from '../../ingest/index.js'\nexport const x = readRun\n")
    expect(fired).toEqual([])
  })

  it('accepts pure code and downward imports', async () => {
    const fired = await rulesFired('src/replay/planted.ts', "import {md5Hex8} from '../logic/python/md5.js'\nexport const sig = (s: string): string => md5Hex8(s)\n")
    expect(fired).toEqual([])
  })

  it('lets services do I/O', async () => {
    const fired = await rulesFired('src/services/planted.ts', "import {readFileSync} from 'node:fs'\nexport const x = (): string => readFileSync('x', 'utf8') + process.cwd()\n")
    expect(fired).toEqual([])
  })
})
