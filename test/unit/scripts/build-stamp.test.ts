import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {beginBuild, staleness, writeStamp} from '../../../scripts/build-stamp.mjs'

// scripts/build-stamp.mjs (docs/contributing.md "The build"): the e2e tier and `npm test` skip the build when the stamp says dist/ is current
describe('the build stamp', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
  })
  const repo = () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-stamp-'))
    dirs.push(dir)
    mkdirSync(join(dir, 'src'))
    writeFileSync(join(dir, 'src/a.ts'), 'export const a = 1\n')
    writeFileSync(join(dir, 'package.json'), '{}\n')
    return dir
  }
  const bundle = (dir: string) => {
    mkdirSync(join(dir, 'dist/cli'), {recursive: true})
    writeFileSync(join(dir, 'dist/cli/execute.js'), '')
    writeFileSync(join(dir, 'oclif.manifest.json'), '{}')
  }

  it('calls a finished build current, and stale once a source changes', () => {
    const dir = repo()
    beginBuild(dir)
    bundle(dir)
    writeStamp(dir)
    expect(staleness(dir)).toBeNull()
    writeFileSync(join(dir, 'src/a.ts'), 'export const a = 2\n')
    expect(staleness(dir)).toBe('the sources changed since the last build')
  })

  it('does not stamp as built an edit made while the build ran (the hash is of the sources as it began)', () => {
    const dir = repo()
    beginBuild(dir)
    writeFileSync(join(dir, 'src/a.ts'), 'export const a = 2\n')
    bundle(dir)
    writeStamp(dir)
    expect(staleness(dir)).toBe('the sources changed since the last build')
  })

  it('calls a build that did not finish missing', () => {
    const dir = repo()
    beginBuild(dir)
    expect(staleness(dir)).toBe('dist/ is missing')
  })
})
