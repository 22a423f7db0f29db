// Every text report fits the terminal it is printed on: each command through the built CLI under a pseudo-terminal
// (util-linux `script`), and every command at each of 60, 80 and 120 columns; off a terminal, unwrapped unless
// COLUMNS is set.
import {execFileSync, spawnSync} from 'node:child_process'
import stringWidth from 'string-width'
import {afterEach, describe, expect, it} from 'vitest'
import {runCli} from '../../helpers/cli.js'
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

const stdoutTty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY')
const columnsEnv = process.env.COLUMNS
afterEach(() => {
  if (stdoutTty === undefined) delete (process.stdout as {isTTY?: boolean}).isTTY
  else Object.defineProperty(process.stdout, 'isTTY', stdoutTty)
  if (columnsEnv === undefined) delete process.env.COLUMNS
  else process.env.COLUMNS = columnsEnv
})

/** The command run in-process off a terminal with COLUMNS=`columns`: its stdout and stderr, line by line. */
async function withColumns(args: readonly string[], columns: number): Promise<string[]> {
  Object.defineProperty(process.stdout, 'isTTY', {value: false, configurable: true, writable: true})
  process.env.COLUMNS = String(columns)
  const ran = await runCli([...args])
  expect(ran.error, `${args.join(' ')} with COLUMNS=${columns}`).toBeUndefined()
  return `${ran.stdout}${ran.stderr}`.split('\n')
}

const WIDTHS = [60, 80, 120] as const
// `terminal` is the width the command is run at under a pseudo-terminal; in turn, so that each width is seen
// through a real terminal. On a terminal the width is the terminal's columns and off one COLUMNS
// (src/cli/terminal.ts, docs/cli.md "Terminal width"), and either way the renderers get only that number: the other
// two widths of each command are checked in-process with COLUMNS, where a CLI start under a pseudo-terminal each
// (~1 s of CPU) took most of the tier's longest file (24 of them, ~90 s) and reached no other code.
// `inProcess` names the command: RUN alone (= analyze RUN) is routed by bin/run.js, which the built CLI runs.
const COMMANDS: readonly {name: string; args: readonly string[]; inProcess?: readonly string[]; terminal: number}[] = [
  {name: 'analyze', args: ['fixtures/runs/ac1a-run1-pre-acr'], inProcess: ['analyze', 'fixtures/runs/ac1a-run1-pre-acr'], terminal: 60},
  {name: 'analyze --verbose', args: ['fixtures/runs/db-003-timeout', '--verbose'], inProcess: ['analyze', 'fixtures/runs/db-003-timeout', '--verbose'], terminal: 80},
  {name: 'explain', args: ['explain', 'fixtures/runs/db-003-timeout', '--task', 'TASK-DB-003'], terminal: 120},
  {name: 'whatif', args: ['whatif', 'fixtures/runs/db-003-timeout', '--task', 'TASK-DB-003'], terminal: 60},
  {name: 'inspect', args: ['inspect', 'fixtures/runs/ac1a-run1-pre-acr'], terminal: 80},
  {name: 'profiles', args: ['profiles'], terminal: 120},
  {name: 'gate', args: ['gate', 'fixtures/runs', '--baseline', 'legacy', '--candidate', 'fixed', '--verbose', '--no-progress'], terminal: 60},
  {name: 'compare', args: ['compare', 'fixtures/runs/ac1a-run1-pre-acr', 'fixtures/runs/ac1a-run2-sft001', '--verbose'], terminal: 80},
]

function expectFits(name: string, how: string, lines: readonly string[], columns: number): void {
  expect(lines.join('\n').length, `${name} ${how} at ${columns}: some output`).toBeGreaterThan(200)
  const over = lines.filter((l) => stringWidth(l) > columns)
  expect(over, `${name} ${how} at ${columns} columns`).toEqual([])
}

// CI installs util-linux; elsewhere the test runs where `script` is
describe.runIf(hasScript || (process.env.CI !== undefined && process.env.CI !== ''))('text reports fit a terminal of 60, 80 and 120 columns', () => {
  for (const {name, args, inProcess, terminal} of COMMANDS) {
    it(name, async () => {
      expectFits(name, 'on a terminal', onTerminal(args, terminal), terminal)
      for (const columns of WIDTHS.filter((w) => w !== terminal)) expectFits(name, 'with COLUMNS', await withColumns(inProcess ?? args, columns), columns)
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
