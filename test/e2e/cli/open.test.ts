// --open starts the platform's opener on the written report and never waits for it or fails on it:
// a stand-in opener (GUARDKIT_REPLAY_OPENER) records what it was given.
import {chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {builtCli} from '../helpers/built-cli.js'

const dir = mkdtempSync(join(tmpdir(), 'gr-open-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

/** An opener that writes its argument to a file, as xdg-open would hand it to the browser. */
function fakeOpener(): {opener: string; opened: string} {
  const opened = join(dir, `opened-${Math.random().toString(36).slice(2)}.txt`)
  const opener = join(dir, `opener-${Math.random().toString(36).slice(2)}.sh`)
  writeFileSync(opener, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`)
  chmodSync(opener, 0o755)
  return {opener, opened}
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50))
}

describe('--open', () => {
  it('analyze --out FILE --open: writes the page and hands FILE to the opener', async () => {
    const {opener, opened} = fakeOpener()
    const out = join(dir, 'report.html')
    const r = await builtCli(['fixtures/runs/db-003-timeout', '--out', out, '--open'], {GUARDKIT_REPLAY_OPENER: opener})
    expect(r.code).toBe(0)
    expect(readFileSync(out, 'utf8')).toMatch(/^<!DOCTYPE html>/)
    expect(r.stderr).toContain(`Opening ${out} in the default browser (${opener}).`)
    await until(() => existsSync(opened))
    expect(readFileSync(opened, 'utf8')).toBe(out)
  })

  it('without --out: the page goes to a temporary file, which is opened', async () => {
    const {opener, opened} = fakeOpener()
    const r = await builtCli(['fixtures/runs/db-003-timeout', '--open'], {GUARDKIT_REPLAY_OPENER: opener})
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('')
    const file = /^Wrote (.+\.html) \(/m.exec(r.stderr)?.[1]
    expect(file).toBeDefined()
    await until(() => existsSync(opened))
    expect(readFileSync(opened, 'utf8')).toBe(file)
    expect(readFileSync(file!, 'utf8')).toContain('TASK-DB-003')
    rmSync(file!, {force: true})
  })

  it('no opener on the machine: says so, and the command still succeeds', async () => {
    const out = join(dir, 'report-2.html')
    const r = await builtCli(['fixtures/runs/db-003-timeout', '--out', out, '--open'], {GUARDKIT_REPLAY_OPENER: join(dir, 'no-such-opener')})
    expect(r.code).toBe(0)
    expect(existsSync(out)).toBe(true)
    expect(r.stderr).toContain(`Could not open ${out} (no ${join(dir, 'no-such-opener')} on this machine): open it in a browser yourself.`)
  })

  it('gate --html FILE --open opens the page; --open without --html is a usage error', async () => {
    const {opener, opened} = fakeOpener()
    const page = join(dir, 'gate.html')
    const r = await builtCli(['gate', 'fixtures/runs/db-003-timeout', '--baseline', 'legacy', '--candidate', 'fixed', '--no-progress', '--html', page, '--open'], {GUARDKIT_REPLAY_OPENER: opener})
    expect(r.code).toBe(0)
    await until(() => existsSync(opened))
    expect(readFileSync(opened, 'utf8')).toBe(page)
    const bad = await builtCli(['gate', 'fixtures/runs/db-003-timeout', '--baseline', 'legacy', '--candidate', 'fixed', '--open'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--open opens the page --html writes: give --html FILE too.')
  })
})
