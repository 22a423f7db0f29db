import {afterEach, describe, expect, it} from 'vitest'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {runCli} from '../../helpers/cli.js'

afterEach(() => {
  process.exitCode = undefined
})

describe('profiles', () => {
  it('lists every logic change with its commit, and the built-in profiles as flag sets', async () => {
    const {stdout} = await runCli(['profiles', '--json'])
    const report = JSON.parse(stdout)
    const ids = report.changes.map((c: {id: string}) => c.id)
    // The stall and direct-mode synthetic-report fixes must exist as separate flags, so that each can be replayed alone.
    for (const id of ['stallNormalize', 'extendedStall', 'directSyntheticFlag', 'directSyntheticPromises']) expect(ids).toContain(id)
    const byName = Object.fromEntries(report.profiles.map((p: {name: string; flags: string[]}) => [p.name, p.flags]))
    expect(byName['fixed']).toHaveLength(ids.length)
    expect(byName['pre-acr']).toEqual([])
    // legacy (f86b1bf9) already holds seed 003's ACR changes (docs/guardkit-logic.md §0.1) and nothing later.
    expect(byName['legacy'].every((f: string) => f.startsWith('acr'))).toBe(true)
    expect(byName['legacy'].length).toBeGreaterThan(0)
    // the as-run profiles the contract fixes exist and grow with time
    for (const name of ['as-run:351c53fa', 'as-run:51222879', 'as-run:c5a83a15']) expect(byName[name]).toBeDefined()
    expect(byName['as-run:351c53fa'].length).toBeLessThan(byName['as-run:c5a83a15'].length)
    // seed 002 ran before 5c2b5d82: no normalised signatures yet (docs/guardkit-logic.md §0.3)
    expect(byName['as-run:351c53fa']).not.toContain('stallNormalize')
    expect(byName['as-run:c5a83a15']).toContain('stallNormalize')
  })

  it('reads user profiles from a YAML file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-profiles-'))
    const file = join(dir, 'profiles.yaml')
    writeFileSync(file, 'profiles:\n  r1-only:\n    base: legacy\n    with: [directSyntheticFlag]\n')
    const {stdout} = await runCli(['profiles', '--json', '--profiles', file])
    const p = JSON.parse(stdout).profiles.find((x: {name: string}) => x.name === 'r1-only')
    expect(p.flags).toContain('directSyntheticFlag')
    expect(p.flags).not.toContain('directSyntheticPromises')
  })

  it('refuses a profiles file with an unknown flag, base or setting, naming the line and the closest name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-profiles-'))
    const cases: [string, string][] = [
      ['profiles:\n  bad:\n    with: [noSuchFlag]\n', ':3: /profiles/bad/with/0: profile "bad": no logic change "noSuchFlag".'],
      ['profiles:\n  mine:\n    base: legcy\n', ':3: /profiles/mine/base: profile "mine": no profile "legcy" to build on. Did you mean `legacy`?'],
      ['profiles:\n  mine:\n    base: legacy\n    without: [stallNormalise]\n', ':4: /profiles/mine/without/0: profile "mine": no logic change "stallNormalise". Did you mean `stallNormalize`?'],
      ['profiles:\n  mine:\n    wiht: [stallNormalize]\n', ':3: /profiles/mine/wiht: profile "mine" has no setting "wiht". Did you mean `with`?'],
    ]
    for (const [i, [yaml, message]] of cases.entries()) {
      const file = join(dir, `bad-${i}.yaml`)
      writeFileSync(file, yaml)
      for (const args of [['profiles', '--profiles', file], ['analyze', 'fixtures/runs/db-003-timeout', '--profiles', file]]) {
        const {error} = await runCli(args)
        expect(error?.oclif?.exit, yaml).toBe(2)
        expect(error?.message).toContain(`${file}${message}`)
      }
    }
  })

  it('--with, --without and --profile names that do not exist are refused with the closest one', async () => {
    const withFlag = await runCli(['analyze', 'fixtures/runs/db-003-timeout', '--with', 'stallNormalise'])
    expect(withFlag.error?.oclif?.exit).toBe(2)
    expect(withFlag.error?.message).toContain('--with stallNormalise: no such logic change. Did you mean `stallNormalize`?')
    const profile = await runCli(['analyze', 'fixtures/runs/db-003-timeout', '--profile', 'lgacy'])
    expect(profile.error?.oclif?.exit).toBe(2)
    expect(profile.error?.message).toContain('unknown profile "lgacy". Did you mean `legacy`?')
  })
})
