import {existsSync, mkdtempSync, readFileSync, readdirSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterEach, describe, expect, it} from 'vitest'
import {runCli} from '../../../helpers/cli.js'
import {all, parseHtml} from './parse.js'

const DB003 = fileURLToPath(new URL('../../../../fixtures/runs/db-003-timeout', import.meta.url))

afterEach(() => {
  process.exitCode = undefined
})

describe('guardkit-replay RUN --format html --out FILE', () => {
  it('writes the page to FILE, says so on stderr and prints nothing on stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-html-'))
    const out = join(dir, 'report.html')
    const {stdout, stderr, error} = await runCli(['analyze', DB003, '--format', 'html', '--out', out])
    expect(error).toBeUndefined()
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^Wrote .*report\.html \(\d+ kB\)\.\n$/)
    const doc = parseHtml(readFileSync(out, 'utf8'))
    expect(all(doc.root, (e) => e.attrs['data-marker'] === 'fixed-stall').length).toBe(1)
    expect(readdirSync(dir)).toEqual(['report.html'])
  })

  it('prints the page on stdout without --out', async () => {
    const {stdout, error} = await runCli(['analyze', DB003, '--format', 'html'])
    expect(error).toBeUndefined()
    expect(stdout.startsWith('<!DOCTYPE html>\n')).toBe(true)
    expect(stdout.trimEnd().endsWith('</html>')).toBe(true)
  })

  it('--redact applies to the page as to the other formats', async () => {
    const plain = await runCli(['analyze', DB003, '--format', 'html'])
    expect(plain.stdout).toContain('/Users/dev/src/fastapi')
    const {stdout, error} = await runCli(['analyze', DB003, '--format', 'html', '--redact'])
    expect(error).toBeUndefined()
    expect(stdout).not.toContain('/Users/dev/')
    expect(all(parseHtml(stdout).root, (e) => e.attrs['data-marker'] === 'fixed-stall').length).toBe(1)
  })

  it('writes the other formats too, text without colour', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-html-'))
    const {error} = await runCli(['analyze', DB003, '--out', join(dir, 'report.txt')])
    expect(error).toBeUndefined()
    const text = readFileSync(join(dir, 'report.txt'), 'utf8')
    expect(text).toContain('TASK-DB-003  ✗ recorded: cancelled at turn 18')
    expect(text).not.toContain('\x1b')
  })

  it('exits 2 when FILE cannot be written, leaving nothing behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-html-'))
    const out = join(dir, 'missing', 'report.html')
    const {error} = await runCli(['analyze', DB003, '--format', 'html', '--out', out])
    expect(error?.message).toMatch(/Cannot write .*report\.html: its folder does not exist/)
    expect(error?.oclif?.exit).toBe(2)
    expect(existsSync(out)).toBe(false)
  })
})
