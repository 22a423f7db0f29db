import {cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtCliPresent, fixture, removeTempDirs, runBuilt, tempDir, type Ran} from './helpers.js'

// Names and text from RUN reach the terminal and CI logs (docs/security.md): a log named
// `run` + newline + `::warning title=INJ::x.log`, a task folder named with ESC/OSC/clear-screen sequences,
// Coach text holding workflow commands. Through the built CLI, in every output format, nothing may reach the
// terminal raw and no line may be a workflow command the tool did not write itself.

const LOG = 'run\n::warning title=INJ::x.log'
const EVIL_TASK = 'TASK-EVIL\x1b]0;pwned\x07\x1b[2J\x1b[H-001'
const INJECTED = '\x1b]8;;http://evil\x07click\x1b]8;;\x07\n::warning title=INJ::feedback\n##[add-mask]hunter2\n::add-mask::hunter3'

let run: string
afterAll(removeTempDirs)
beforeAll(() => {
  expect(builtCliPresent(), 'dist/ is missing: run `npm run build` (npm test does)').toBe(true)
  const dir = tempDir()
  run = join(dir, 'run')
  cpSync(fixture('rk01-003-direct-mode'), run, {recursive: true})
  // a plain copy: no manifest (its hashes would not hold), no expectations
  for (const f of ['guardkit-replay.json', 'versions', 'expected.yaml', 'README.md']) rmSync(join(run, f), {recursive: true, force: true})
  renameSync(join(run, 'run.log'), join(run, LOG))
  const coach = join(run, '.guardkit/autobuild/TASK-RK01-003/coach_turn_1.json')
  const report = JSON.parse(readFileSync(coach, 'utf8')) as Record<string, unknown>
  writeFileSync(coach, JSON.stringify({...report, rationale: `${String(report.rationale)} ${INJECTED}`}, null, 2))
  cpSync(join(run, '.guardkit/autobuild/TASK-RK01-003'), join(run, '.guardkit/autobuild', EVIL_TASK), {recursive: true})
  mkdirSync(join(dir, 'out'))
})

// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/
/** The annotations the gate writes itself (docs/ci.md): `::error`/`::warning` with its own titles. */
const OURS = /^::(?:error|warning) (?:file=[^,:]*,)?(?:line=\d+,)?title=(?:gate |guardkit-replay gate)/

function expectHarmless(what: string, text: string): void {
  expect(text, `${what}: a raw control character`).not.toMatch(RAW_CONTROL)
  for (const line of text.split('\n')) {
    const command = /^[\s\ufeff]*::/.test(line) && !OURS.test(line)
    expect(command, `${what}: a line the CI runner reads as a workflow command: ${JSON.stringify(line)}`).toBe(false)
    expect(/##(?:vso)?\[/i.test(line), `${what}: ##[ in ${JSON.stringify(line)}`).toBe(false)
  }
}

function expectRan(what: string, ran: Ran, codes: readonly number[]): void {
  expect(ran.hung, `${what} did not end`).toBe(false)
  expect(codes, `${what} exited ${ran.code}: ${ran.stderr.slice(0, 500)}`).toContain(ran.code)
  expectHarmless(`${what} stdout`, ran.stdout)
  expectHarmless(`${what} stderr`, ran.stderr)
}

describe('hostile names and text in every output (built CLI)', () => {
  it('analyze as text, Markdown, HTML and JSON; inspect; explain; whatif', async () => {
    const outputs = new Map<string, string>()
    for (const args of [[], ['--format', 'md'], ['--format', 'md', '-v'], ['--format', 'html'], ['--json'], ['-v']]) {
      const ran = await runBuilt(['analyze', run, ...args])
      expectRan(`analyze ${args.join(' ')}`, ran, [0])
      expect(ran.stdout.length).toBeGreaterThan(100)
      outputs.set(args.join(' '), ran.stdout)
    }
    const doc = JSON.parse(outputs.get('--json')!) as {run: {logs: string[]}; tasks: {taskId: string}[]}
    // the JSON carries the exact names (it is data); the text shows them escaped
    expect(doc.run.logs).toContain(LOG)
    expect(doc.tasks.map((t) => t.taskId)).toContain(EVIL_TASK)
    expect(outputs.get('')).toContain('TASK-EVIL\\e]0;pwned\\a\\e[2J\\e[H-001')
    expectRan('inspect', await runBuilt(['inspect', run]), [0])
    expectRan('explain', await runBuilt(['explain', run, '--task', 'TASK-RK01-003']), [0])
    expectRan('explain md', await runBuilt(['explain', run, '--task', 'TASK-RK01-003', '--format', 'md']), [0])
    expectRan('whatif', await runBuilt(['whatif', run, '--task', 'TASK-RK01-003']), [0])
  }, 120_000)

  it('a task that is not there lists the run\'s task ids escaped; echoed option values too', async () => {
    const nope = await runBuilt(['explain', run, '--task', 'NOPE'])
    expectRan('explain --task NOPE', nope, [2])
    expect(nope.stderr).toContain('TASK-EVIL\\e]0;pwned\\a\\e[2J\\e[H-001')
    expectRan('explain --task ESC', await runBuilt(['explain', run, '--task', '\x1b]0;x\x07\x1b[2J']), [2])
    expectRan('--profile ESC', await runBuilt(['analyze', run, '--profile', '\x1b[2Jlegacy\n::add-mask::x']), [2])
    expectRan('an unknown flag', await runBuilt(['analyze', run, '--\x1b[2Jx']), [2])
    expectRan('RUN missing', await runBuilt(['analyze', `${run}\n::warning title=INJ::missing`]), [2])
  }, 60_000)

  it('gate: text, Markdown, JSON, JUnit, GitHub annotations and the step summary', async () => {
    const dir = tempDir()
    const summary = join(dir, 'summary.md')
    const junit = join(dir, 'gate.xml')
    const html = join(dir, 'gate.html')
    const env = {GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary}
    const gate = await runBuilt(['gate', run, '--baseline', 'fixed', '--candidate', 'legacy', '--junit', junit, '--html', html, '--jobs', '1', '--no-progress'], {env})
    expectRan('gate', gate, [1])
    // the gate's own annotations are there, and carry the hostile names escaped
    expect(gate.stdout.split('\n').filter((l) => OURS.test(l)).length).toBeGreaterThan(0)
    for (const file of [summary, junit, html]) expectHarmless(file, readFileSync(file, 'utf8'))
    expectRan('gate md', await runBuilt(['gate', run, '--baseline', 'fixed', '--candidate', 'legacy', '--format', 'md', '--jobs', '1', '--no-progress', '--no-github']), [1])
    const json = await runBuilt(['gate', run, '--baseline', 'fixed', '--candidate', 'legacy', '--json', '--jobs', '1', '--no-progress', '--no-github'])
    expectRan('gate --json', json, [1])
  }, 120_000)
})
