import {mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative, sep} from 'node:path'
import {fileURLToPath} from 'node:url'
import {fc, test} from '../../helpers/prop.js'
import {afterAll, beforeAll, describe, expect} from 'vitest'
import {parsePythonJson} from '../../../src/ingest/index.js'
import {parsePyYaml} from '../../../src/logic/python/py-yaml.js'
import {runRecord} from '../../../src/services/record.js'
import {runs} from '../../helpers/arbitraries/index.js'
import {anySecret} from '../../helpers/arbitraries/secrets.js'
import {analyseToJson, TOOL, verdictsOf} from '../../helpers/recording.js'
import {createMemoryPort, type MemEntry, snapshotDirectory} from '../../helpers/memory-port.js'
import {plant} from '../../helpers/plant.js'

/**
 * Redaction that understands what it redacts (docs/recording-format.md "Redaction"): every
 * kind of secret — the earlier ones and private key blocks, Slack webhooks, npm, Hugging Face, PyPI,
 * GitLab, Stripe, Twilio, SendGrid, Azure and GCP keys, any `NAME=value` whose name says it is a
 * secret — planted in real-shaped runs right after JSON escapes, inside YAML block scalars and in log
 * lines, then `record`: none survives (in the bytes, nor in any JSON or YAML string once decoded), every
 * file that parsed still parses, and every verdict, signature and finding is unchanged.
 */
const FIXTURES = fileURLToPath(new URL('../../../fixtures/runs/', import.meta.url))
const NAMES = ['ok-single-turn-promises', 'rk01-003-direct-mode', 'ok-approved-after-feedback', 'hostile-log', 'ac1a-run2-sft001'].filter((n) => readdirSync(FIXTURES).includes(n))
const MOUNT = '/guardkit-replay-planted-run'
const NONE = {users: [], hosts: [], homes: []}
const SILENT = {step: () => undefined, done: () => undefined}
const snapshots = new Map<string, Map<string, MemEntry>>()
const scratch = mkdtempSync(join(tmpdir(), 'gr-planted-'))
let n = 0

beforeAll(() => {
  for (const name of NAMES) snapshots.set(name, snapshotDirectory(`${FIXTURES}${name}`, MOUNT))
})
afterAll(() => rmSync(scratch, {recursive: true, force: true}))

function filesBelow(dir: string): [string, Buffer][] {
  const out: [string, Buffer][] = []
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const abs = join(d, name)
      if (statSync(abs).isDirectory()) walk(abs)
      else out.push([relative(dir, abs).split(sep).join('/'), readFileSync(abs)])
    }
  }
  walk(dir)
  return out
}

/** Every string of a parsed value, keys included. */
function strings(value: unknown, acc: string[] = []): string[] {
  if (typeof value === 'string') acc.push(value)
  else if (Array.isArray(value)) for (const v of value) strings(v, acc)
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      acc.push(k)
      strings(v, acc)
    }
  }
  return acc
}

/** What the file is as data: a JSON document, a YAML one, a task file's frontmatter; null for a log. */
function parsed(path: string, bytes: Uint8Array): {ok: boolean; value?: unknown} | null {
  const text = Buffer.from(bytes).toString('utf8')
  const original = path.replace(/^versions\/(.*)\/\d+$/, '$1')
  if (original.endsWith('.json')) return parsePythonJson(text)
  if (/\.ya?ml$/.test(original)) return parsePyYaml(text)
  const front = /^---\n([\s\S]*?)\n---/.exec(text)
  if (original.endsWith('.md') && front !== null) return parsePyYaml(front[1]!)
  return null
}

describe('redaction of planted secrets, through record', () => {
  test.prop([fc.constantFrom(...NAMES), fc.array(fc.record({s: anySecret, at: fc.nat()}), {minLength: 1, maxLength: 8})], runs(200))(
    'none survives, every file still parses, every verdict, signature and finding is unchanged',
    async (name, items) => {
      const run = plant(snapshots.get(name)!, items)
      const expected = verdictsOf(await analyseToJson(MOUNT, createMemoryPort(run)))
      const out = join(scratch, `r${++n}`)
      await runRecord(MOUNT, {out, tool: TOOL, machine: NONE, port: createMemoryPort(run), progress: SILENT})
      const sources = new Map([...run.entries()].flatMap(([p, e]) => (e.kind === 'file' ? [[p.slice(MOUNT.length + 1), e.bytes] as const] : [])))
      // searched in plain loops and asserted once: an expect() per decoded string was most of this test's time
      const broken: string[] = []
      const survivors: string[] = []
      for (const [path, bytes] of filesBelow(out)) {
        const raw = bytes.toString('latin1')
        const data = parsed(path, bytes)
        const source = sources.get(path.replace(/^versions\/(.*)\/\d+$/, '$1'))
        if (data !== null && !data.ok && source !== undefined && parsed(path, source)?.ok === true) broken.push(`${path} no longer parses`)
        const decoded = data?.ok === true ? strings(data.value) : []
        for (const {s} of items) {
          for (const g of s.gone) {
            if (raw.includes(Buffer.from(g, 'utf8').toString('latin1'))) survivors.push(`${s.kind} in ${path}: ${g}`)
            if (decoded.some((d) => d.includes(g))) survivors.push(`${s.kind} decoded in ${path}: ${g}`)
          }
        }
      }
      expect(broken).toEqual([])
      expect(survivors).toEqual([])
      expect(verdictsOf(await analyseToJson(out))).toEqual(expected)
      rmSync(out, {recursive: true, force: true})
    },
    600_000,
  )
})
