import {cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtCliPresent, filesBelow, fixture, removeTempDirs, runBuilt, startBuilt, tempDir} from './helpers.js'

// record and analyze --redact through the built CLI (docs/security.md, docs/recording-format.md): secrets
// right after JSON escapes and of every added kind never reach a recording or a redacted report, every
// file of a recording parses, and two records racing for one --out end with one recording and a clear
// exit 2 for the other, never an exit 3.

const NPM = 'npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'
const PEM_LINE = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj'
const PEM = `-----BEGIN PRIVATE KEY-----\n${PEM_LINE}\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\n-----END PRIVATE KEY-----`
const SECRETS = [NPM.slice(4), PEM_LINE.slice(0, 24), 'hunter2hunter', 'jane.doe', 'xoxb-1234567890', 'T0ABC1234/B0DEF5678']

let run: string
afterAll(removeTempDirs)
beforeAll(() => {
  expect(builtCliPresent(), 'dist/ is missing: run `npm run build` (npm test does)').toBe(true)
  run = join(tempDir(), 'run')
  cpSync(fixture('rk01-003-direct-mode'), run, {recursive: true})
  // a plain copy (the manifest's hashes would not hold), with secrets where they change no verdict
  for (const f of ['guardkit-replay.json', 'versions']) rmSync(join(run, f), {recursive: true, force: true})
  const coach = join(run, '.guardkit/autobuild/TASK-RK01-003/coach_turn_1.json')
  const report = JSON.parse(readFileSync(coach, 'utf8')) as Record<string, unknown>
  writeFileSync(coach, JSON.stringify({
    notes: `x\njane.doe@corp-mail.io\t${NPM}\u00e9GCP_DB_PASS=hunter2hunter`,
    private_key: PEM,
    webhook: 'https://hooks.slack.com/services/T0ABC1234/B0DEF5678/aBcDeFgHiJkLmNoPqRsTuVwX',
    ...report,
  }, null, 2))
  const log = join(run, 'run.log')
  const lines = readFileSync(log, 'utf8').split('\n')
  lines.splice(5, 0, `INFO:tests.planted:SLACK_TOKEN=xoxb-1234567890-abcdefghij ${NPM}`, `INFO:tests.planted:key ${JSON.stringify(PEM)}`)
  writeFileSync(log, lines.join('\n'))
})

function noSecret(what: string, text: string): void {
  for (const s of SECRETS) expect(text.includes(s), `${what} holds ${s}`).toBe(false)
}

describe('record and analyze --redact (built CLI)', () => {
  it('analyze --redact leaks no secret in any format', async () => {
    for (const args of [['--json'], [], ['--format', 'md', '-v'], ['--format', 'html']]) {
      const ran = await runBuilt(['analyze', run, '--redact', ...args])
      expect(ran.code, ran.stderr).toBe(0)
      noSecret(`analyze --redact ${args.join(' ')}`, ran.stdout)
    }
  }, 120_000)

  it('record: no secret in any file, every JSON file parses, and the recording replays as RUN', async () => {
    const out = join(tempDir(), 'rec')
    const ran = await runBuilt(['record', run, '--out', out])
    expect(ran.code, ran.stderr).toBe(0)
    for (const [path, bytes] of filesBelow(out)) {
      noSecret(path, bytes.toString('latin1'))
      if (path.endsWith('.json')) expect(() => JSON.parse(bytes.toString('utf8')), path).not.toThrow()
    }
    const [a, b] = await Promise.all([runBuilt(['analyze', run, '--json']), runBuilt(['analyze', out, '--json'])])
    const outcomes = (s: string) => (JSON.parse(s) as {tasks: {taskId: string; replay: Record<string, {outcome: string}>}[]}).tasks.map((t) => [t.taskId, Object.values(t.replay).map((r) => r.outcome)])
    expect(outcomes(b.stdout)).toEqual(outcomes(a.stdout))
  }, 120_000)

  it('two records racing for one --out: one recording, the other exits 2 with a clear message, nothing left behind', async () => {
    for (let round = 0; round < 2; round++) {
      const parent = tempDir()
      const out = join(parent, 'rec')
      const [x, y] = await Promise.all([startBuilt(['record', run, '--out', out]).done, startBuilt(['record', run, '--out', out]).done])
      expect([x.code, y.code].sort(), `${x.stderr}\n${y.stderr}`).toEqual([0, 2])
      const loser = x.code === 2 ? x : y
      expect(loser.stderr).toMatch(/--out .* (?:was written by another process|is not empty)/)
      expect(loser.stderr).not.toMatch(/internal error|This is a bug/)
      expect(existsSync(join(out, 'guardkit-replay.json'))).toBe(true)
      expect(readdirSync(parent)).toEqual(['rec'])
    }
  }, 240_000)
})
