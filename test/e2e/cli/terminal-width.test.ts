// Every text report fits the terminal it is printed on: the built CLI under a pseudo-terminal of
// 60, 80 and 120 columns (util-linux `script`), and, off a terminal, unwrapped unless COLUMNS is set.
import {execFileSync, spawnSync} from 'node:child_process'
import stringWidth from 'string-width'
import {describe, expect, it} from 'vitest'
import {builtCli, root} from '../helpers/built-cli.js'

const hasScript = spawnSync('script', ['--version']).status === 0
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/** What a terminal of `columns` shows of the command's output: each line as it ends up after \r and erase-line. */
function onTerminal(args: readonly string[], columns: number): string[] {
  const command = `stty cols ${columns} rows 50; NO_COLOR=1 ${quote(process.execPath)} bin/run.js ${args.map(quote).join(' ')}`
  const out = execFileSync('script', ['-qec', command, '/dev/null'], {cwd: root, encoding: 'utf8', env: {...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true'}, maxBuffer: 64 << 20})
  // eslint-disable-next-line no-control-regex
  return out.split('\n').map((l) => l.replace(/\r$/, '').split(/\r|\x1b\[2K/).at(-1)!)
}

const COMMANDS: readonly (readonly [string, readonly string[]])[] = [
  ['analyze', ['fixtures/runs/ac1a-run1-pre-acr']],
  ['analyze --verbose', ['fixtures/runs/db-003-timeout', '--verbose']],
  ['explain', ['explain', 'fixtures/runs/db-003-timeout', '--task', 'TASK-DB-003']],
  ['whatif', ['whatif', 'fixtures/runs/db-003-timeout', '--task', 'TASK-DB-003']],
  ['inspect', ['inspect', 'fixtures/runs/ac1a-run1-pre-acr']],
  ['profiles', ['profiles']],
  ['gate', ['gate', 'fixtures/runs', '--baseline', 'legacy', '--candidate', 'fixed', '--verbose', '--no-progress']],
  ['compare', ['compare', 'fixtures/runs/ac1a-run1-pre-acr', 'fixtures/runs/ac1a-run2-sft001', '--verbose']],
]

// CI installs util-linux; elsewhere the test runs where `script` is
describe.runIf(hasScript || (process.env.CI !== undefined && process.env.CI !== ''))('text reports fit a terminal of 60, 80 and 120 columns', () => {
  for (const [name, args] of COMMANDS) {
    it(name, () => {
      for (const columns of [60, 80, 120]) {
        const lines = onTerminal(args, columns)
        expect(lines.join('\n').length, `${name} at ${columns}: some output`).toBeGreaterThan(200)
        const over = lines.filter((l) => stringWidth(l) > columns)
        expect(over, `${name} at ${columns} columns`).toEqual([])
      }
    }, 120_000)
  }
})

describe('off a terminal: unwrapped, unless COLUMNS says how wide', () => {
  it('analyze piped: a verdict is one line however long; with COLUMNS=80 every line fits 80', async () => {
    const [piped, narrow] = await Promise.all([builtCli(['fixtures/runs/db-003-timeout']), builtCli(['fixtures/runs/db-003-timeout'], {COLUMNS: '80'})])
    expect(piped.stdout.split('\n').some((l) => stringWidth(l) > 120)).toBe(true)
    // the why line (the primary cause, its quoted line, the contributing causes) is long: one line, unwrapped
    expect(piped.stdout).toMatch(/\n {2}why +test-environment: the Coach's own test run[^\n]+ \(run\.log:\d+\); contributing: [^\n]+\n/)
    expect(narrow.stdout.split('\n').filter((l) => stringWidth(l) > 80)).toEqual([])
  })
})
