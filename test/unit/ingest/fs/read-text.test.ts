import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {fc, test} from '../../../helpers/prop.js'
import {join} from 'node:path'
import {createFaultInjectingPort} from '../../../../src/ingest/fs/fault-injecting-port.js'
import {createNodeFilePort} from '../../../../src/ingest/fs/node-file-port.js'
import {readTextFile} from '../../../../src/ingest/fs/read-text.js'
import {streamFile} from '../../../../src/ingest/fs/stream-file.js'
import {firstInvalidUtf8} from '../../../../src/ingest/fs/text-bytes.js'
import type {IngestIssue} from '../../../../src/model/ingest-issue.js'
import {makeTree, removeTree} from '../../../helpers/run-helpers.js'

const node = createNodeFilePort()
const TEXT = {maxBytes: 1 << 20, maxLineChars: 10, whenTooLarge: 'keep-head' as const}
let root: string
beforeAll(async () => {
  root = await makeTree({
    'bom.md': '\ufeff# Title\n',
    'long.md': 'short\n' + 'x'.repeat(25) + '\nshorter\n' + 'y'.repeat(12),
    'euro.txt': '€€€€',
    'log.log': 'a\nb\nc\n',
  })
})
afterAll(async () => {
  await removeTree(root)
})

describe('readTextFile', () => {
  it('drops a UTF-8 byte order mark', async () => {
    expect(await readTextFile(node, join(root, 'bom.md'), 'bom.md', TEXT)).toEqual({text: '# Title\n', issues: []})
  })

  it('cuts over-long lines and reports each with its line number', async () => {
    const r = await readTextFile(node, join(root, 'long.md'), 'long.md', TEXT)
    expect(r.text).toBe('short\n' + 'x'.repeat(10) + '\nshorter\n' + 'y'.repeat(10))
    expect(r.issues.map((i) => [i.line, i.code])).toEqual([[2, 'too-long-line'], [4, 'too-long-line']])
  })

  it('a head cut inside a multi-byte character is not reported as invalid UTF-8', async () => {
    const r = await readTextFile(node, join(root, 'euro.txt'), 'euro.txt', {maxBytes: 4, maxLineChars: null, whenTooLarge: 'keep-head'})
    expect(r.issues.map((i) => i.code)).toEqual(['too-large'])
  })

  it('re-reads a file that changed while read; reports it when it never settles', async () => {
    const settles = createFaultInjectingPort(node, {[join(root, 'log.log')]: {changing: {visibleBytes: 2, reads: 2}}})
    expect(await readTextFile(settles, join(root, 'log.log'), 'log.log', TEXT)).toEqual({text: 'a\nb\nc\n', issues: []})
    const never = createFaultInjectingPort(node, {[join(root, 'log.log')]: {changing: {visibleBytes: 2}}})
    const r = await readTextFile(never, join(root, 'log.log'), 'log.log', TEXT)
    expect(r.text).toBe('a\n')
    expect(r.issues).toEqual([expect.objectContaining({code: 'changed-during-read', severity: 'warning'})])
  })
})

describe('streamFile', () => {
  it('streams a log and reports an unreadable, an empty and a too-large one', async () => {
    const issues: IngestIssue[] = []
    const chunks: Uint8Array[] = []
    expect(await streamFile(node, join(root, 'log.log'), 'log.log', 1 << 20, (c) => chunks.push(c), issues)).toBe(true)
    expect(Buffer.concat(chunks).toString()).toBe('a\nb\nc\n')
    const faulty = createFaultInjectingPort(node, {[join(root, 'log.log')]: {readError: 'EACCES'}})
    expect(await streamFile(faulty, join(root, 'log.log'), 'log.log', 1 << 20, () => {}, issues)).toBe(false)
    expect(await streamFile(node, join(root, 'log.log'), 'log.log', 2, () => {}, issues)).toBe(true)
    expect(issues.map((i) => [i.code, i.severity])).toEqual([['unreadable', 'error'], ['too-large', 'warning']])
  })
})

describe('firstInvalidUtf8', () => {
  test.prop([fc.string({unit: 'grapheme'})], {numRuns: 200})('finds nothing wrong in what TextEncoder writes', (s) => {
    expect(firstInvalidUtf8(new TextEncoder().encode(s))).toBeNull()
  })

  it('finds overlong forms, surrogates and cut sequences, as a strict decoder would', () => {
    for (const bytes of [[0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80], [0x80]]) {
      expect(firstInvalidUtf8(new Uint8Array(bytes))).toBe(0)
      expect(() => new TextDecoder('utf-8', {fatal: true}).decode(new Uint8Array(bytes))).toThrow()
    }
  })
})
