// The installed CLI runs the bundles of scripts/bundle.mjs, not the sources the other tests run: these
// check that what a user gets behaves as the sources do (`npm test` builds first).
import {execFile} from 'node:child_process'
import {copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {beforeAll, describe, expect, it} from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const run = promisify(execFile)
const env = {...process.env, NO_COLOR: '1', OCLIF_SKIP_NEW_VERSION_CHECK: 'true'}
const FIXTURE = 'fixtures/runs/db-003-timeout'

async function cli(entry: 'bin/run.js' | 'bin/dev.js', args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
  try {
    const {stdout, stderr} = await run(process.execPath, [entry, ...args], {cwd: root, env, maxBuffer: 64 << 20})
    return {code: 0, stdout, stderr}
  } catch (error) {
    const e = error as {code?: number; stdout?: string; stderr?: string}
    return {code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? ''}
  }
}

/** Every module a bundle loads at start-up, following its static imports through dist/. */
function staticImports(entry: string): {files: string[]; packages: string[]} {
  const files = new Set<string>()
  const packages = new Set<string>()
  const walk = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)) {
      const spec = m[1]!
      if (spec.startsWith('.')) walk(resolve(dirname(file), spec))
      else packages.add(spec)
    }
  }
  walk(resolve(root, entry))
  return {files: [...files], packages: [...packages].sort()}
}

describe('the built CLI (dist/)', () => {
  beforeAll(() => {
    expect(existsSync(`${root}dist/cli/execute.js`), 'dist/ is missing: run `npm run build` (npm test does)').toBe(true)
  })

  it('analyze --json gives the report the sources give', async () => {
    const [built, dev] = await Promise.all([cli('bin/run.js', [FIXTURE, '--json']), cli('bin/dev.js', [FIXTURE, '--json'])])
    expect(built.code).toBe(0)
    expect(dev.code).toBe(0)
    expect(JSON.parse(built.stdout)).toEqual(JSON.parse(dev.stdout))
  })

  it('prints the version and the help of a command (help comes from @oclif/plugin-help, outside the bundle)', async () => {
    const version = await cli('bin/run.js', ['--version'])
    expect(version.stdout).toMatch(/^guardkit-replay\/\d+\.\d+\.\d+ /)
    const help = await cli('bin/run.js', ['help', 'inspect'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('$ guardkit-replay inspect RUN [--json]')
  })

  it('reports a usage mistake with exit 2 and no stack trace', async () => {
    const result = await cli('bin/run.js', ['inspect', FIXTURE, '--bogus'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('inspect has no flag --bogus.')
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })

  it('gates on worker threads from the bundled worker (dist/services/gate/worker.js) as in one thread', async () => {
    // src/services/gate/pool.ts starts threads from 24 runs on: 24 copies of a small fixture
    const dir = mkdtempSync(join(tmpdir(), 'gr-built-gate-'))
    try {
      for (let i = 0; i < 24; i++) cpSync(`${root}fixtures/runs/hostile-log`, join(dir, `run-${String(i).padStart(2, '0')}`), {recursive: true})
      const gate = (jobs: string) => cli('bin/run.js', ['gate', dir, '--baseline', 'fixed', '--candidate', 'legacy', '--json', '--no-progress', '--no-github', '--jobs', jobs])
      const [threads, single] = await Promise.all([gate('2'), gate('1')])
      expect(threads.stderr).toBe('')
      expect(threads.code).toBe(single.code)
      const report = JSON.parse(threads.stdout) as {runs: unknown[]}
      expect(report.runs).toHaveLength(24)
      expect(report).toEqual(JSON.parse(single.stdout))
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })

  it('inspect and analyze load no package from node_modules at start-up (start-up time is file count)', () => {
    for (const entry of ['dist/cli/execute.js', 'dist/commands/inspect.js', 'dist/commands/analyze.js']) {
      const {packages} = staticImports(entry)
      expect(packages.filter((p) => !p.startsWith('node:')), entry).toEqual([])
    }
  })

  it('keeps one copy of oclif: the commands and the entry share its chunk', () => {
    const oclifChunks = (entry: string) => staticImports(entry).files.filter((f) => readFileSync(f, 'utf8').includes('node_modules/@oclif/core/lib/config/config.js'))
    const fromEntry = oclifChunks('dist/cli/execute.js')
    expect(fromEntry).toHaveLength(1)
    expect(oclifChunks('dist/commands/inspect.js')).toEqual(fromEntry)
  })

  it('says how to build it when dist/ is missing, without a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-unbuilt-'))
    try {
      mkdirSync(join(dir, 'bin'))
      for (const f of ['run.js', 'argv.js']) copyFileSync(`${root}bin/${f}`, join(dir, 'bin', f))
      const result = await run(process.execPath, [join(dir, 'bin/run.js'), '--version']).then(
        () => ({code: 0, stderr: ''}), (e: {code: number; stderr: string}) => ({code: e.code, stderr: e.stderr}))
      expect(result.code).toBe(3)
      expect(result.stderr).toBe('guardkit-replay is not built: run `npm run build` in its folder (`npm install` does it too).\n')
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
