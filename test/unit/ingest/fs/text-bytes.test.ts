import {randomBytes} from 'node:crypto'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {fc, test} from '../../../helpers/prop.js'
import {afterEach, describe, expect, it} from 'vitest'
import {discoverRun} from '../../../../src/ingest/discover.js'
import {createNodeFilePort} from '../../../../src/ingest/fs/node-file-port.js'
import {readTextFile} from '../../../../src/ingest/fs/read-text.js'
import {detectEncoding, looksBinary, nulLines} from '../../../../src/ingest/fs/text-bytes.js'
import {loadRun} from '../../../../src/services/load-run.js'
import {runs} from '../../../helpers/arbitraries/index.js'
import {makeTree, removeTree} from '../../../helpers/run-helpers.js'

// A file is binary only when much of a large sample is (docs/ingest.md "Text encodings"): one NUL or a few
// stray bytes cost their lines, never the whole log, in discovery as in a direct read.

const FIXTURE = readFileSync(fileURLToPath(new URL('../log/fixtures/parallel-wave.log', import.meta.url)))
const roots: string[] = []
afterEach(async () => {
  for (const r of roots.splice(0)) await removeTree(r)
})

/** The fixture with a NUL byte put into line `line` (1-based). */
function withNul(line: number): Buffer {
  let at = 0
  for (let l = 1; l < line; l++) at = FIXTURE.indexOf(0x0a, at) + 1
  return Buffer.concat([FIXTURE.subarray(0, at + 3), Buffer.from([0]), FIXTURE.subarray(at + 3)])
}

describe('looksBinary', () => {
  it('random and compressed bytes are binary; text with a NUL, Latin-1 letters or ANSI colours is not', () => {
    expect(looksBinary(randomBytes(64 * 1024))).toBe(true)
    expect(looksBinary(Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), randomBytes(4096)]))).toBe(true)
    expect(looksBinary(Buffer.alloc(4096))).toBe(true)
    expect(looksBinary(withNul(2))).toBe(false)
    expect(looksBinary(Buffer.from('caf\xe9 cr\xe8me\n'.repeat(100), 'latin1'))).toBe(false)
    expect(looksBinary(Buffer.from('\x1b[32m✓\x1b[0m done\r\n'.repeat(100)))).toBe(false)
    expect(looksBinary(Buffer.from(FIXTURE.toString('utf8'), 'utf16le'))).toBe(false)
  })

  test.prop([fc.integer({min: 1, max: 40})], runs(200))('a few NUL bytes anywhere in a text log do not make it binary', (n) => {
    const bytes = Buffer.from(FIXTURE)
    for (let i = 0; i < n; i++) bytes[(i * 7919) % bytes.length] = 0
    expect(looksBinary(bytes)).toBe(false)
  })
})

describe('detectEncoding', () => {
  it('UTF-16 by its byte-order mark, or by the zero bytes of ASCII text; anything else is UTF-8', () => {
    const text = 'INFO:guardkit.orchestrator.autobuild:Executing turn 1/5\n'
    expect(detectEncoding(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toBe('utf-16le')
    expect(detectEncoding(Buffer.from(text, 'utf16le'))).toBe('utf-16le')
    expect(detectEncoding(Buffer.from(text, 'utf16le').swap16())).toBe('utf-16be')
    expect(detectEncoding(Buffer.from(text))).toBe('utf-8')
    expect(detectEncoding(withNul(1))).toBe('utf-8')
    expect(detectEncoding(Buffer.alloc(100))).toBe('utf-8')
  })

  it('a log opening with a Rich panel, without a byte-order mark: its line breaks tell the byte order, not its zeros', () => {
    // `─` (U+2500) is `00 25` in UTF-16LE: zeros where UTF-16BE has ASCII's, here more of them than ASCII's own
    const rule = '─'.repeat(100)
    const text = `INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-A1\n╭${rule}╮\n│ AutoBuild Feature Orchestration │\n╰${rule}╯\n`
    expect(detectEncoding(Buffer.from(text, 'utf16le'))).toBe('utf-16le')
    expect(detectEncoding(Buffer.from(text, 'utf16le').swap16())).toBe('utf-16be')
    // one long line, no break in the sample: the position most zeros are in
    expect(detectEncoding(Buffer.from('INFO:guardkit.cli.autobuild:' + 'x'.repeat(3000), 'utf16le'))).toBe('utf-16le')
  })

  it('zeros beside control bytes are not UTF-16 text', () => {
    expect(detectEncoding(Buffer.from(Array.from({length: 2048}, (_, i) => (i % 2 === 0 ? (i >> 1) % 8 + 1 : 0))))).toBe('utf-8')
    expect(detectEncoding(randomBytes(4096))).toBe('utf-8')
  })
})

describe('nulLines', () => {
  it('counts the lines holding NUL bytes and names the first', () => {
    expect(nulLines(Buffer.from('a\nb\0\0c\nd\ne\0\n'))).toEqual({count: 2, first: 2})
    expect(nulLines(Buffer.from('a\nb\n'))).toBeNull()
  })
})

describe('discovery and direct reads agree', () => {
  it('a NUL in the first 8 KiB of a log: discovery still finds it, and both reads skip that line only', async () => {
    const bytes = withNul(3)
    const root = await makeTree({'run.log': bytes})
    roots.push(root)
    const discovered = await loadRun(root)
    const direct = await loadRun(join(root, 'run.log'))
    expect(discovered.logs).toEqual(['run.log'])
    for (const run of [discovered, direct]) {
      expect(run.ingestIssues.filter((i) => i.code === 'binary')).toEqual([expect.objectContaining({file: 'run.log', line: 3})])
      expect(run.attempts.length).toBeGreaterThan(0)
    }
    expect(JSON.stringify(discovered.tasks)).toBe(JSON.stringify(direct.tasks))
  })

  it('a UTF-16 log is found and read in a folder as it is given directly', async () => {
    const root = await makeTree({'run.log': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(FIXTURE.toString('utf8'), 'utf16le')]), 'utf8/run.log': FIXTURE})
    roots.push(root)
    const d = await discoverRun(createNodeFilePort(), root)
    expect(d.logs.map((l) => l.rel)).toEqual(['run.log', 'utf8/run.log'])
    const utf16 = await loadRun(join(root, 'run.log'))
    const utf8 = await loadRun(join(root, 'utf8/run.log'))
    expect(JSON.stringify(utf16.tasks)).toBe(JSON.stringify(utf8.tasks))
  })

  it('a text artifact: UTF-16 decoded, a NUL line named, a mostly binary file skipped', async () => {
    const root = await makeTree({'a.md': Buffer.from('# T\n\nbody\n', 'utf16le'), 'b.md': '# T\nx\0y\nz\n', 'c.md': randomBytes(2048)})
    roots.push(root)
    const port = createNodeFilePort()
    const options = {maxBytes: 1 << 20, maxLineChars: null, whenTooLarge: 'skip' as const}
    expect(await readTextFile(port, join(root, 'a.md'), 'a.md', options)).toEqual({text: '# T\n\nbody\n', issues: [expect.objectContaining({code: 'utf-16', severity: 'info'})]})
    const b = await readTextFile(port, join(root, 'b.md'), 'b.md', options)
    expect(b.issues).toEqual([expect.objectContaining({code: 'binary', line: 2})])
    const c = await readTextFile(port, join(root, 'c.md'), 'c.md', options)
    expect(c.text).toBeNull()
    expect(c.issues).toEqual([expect.objectContaining({code: 'binary'})])
  })
})
