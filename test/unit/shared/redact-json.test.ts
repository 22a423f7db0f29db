import {describe, expect, it} from 'vitest'
import {redactJson} from '../../../src/shared/redact-json.js'
import {Redactor} from '../../../src/shared/redact.js'

// A JSON file is redacted as JSON (docs/recording-format.md "Redaction"): strings decoded, redacted, and
// only what changed re-encoded; the rest of the file byte for byte.

const NONE = {users: [], hosts: [], homes: []}
const redact = (text: string) => redactJson(new Redactor(NONE), text)

describe('redactJson', () => {
  it('replaces a value under a secret name whole, keeps the name, the spacing and every escape it did not touch', () => {
    const text = '{\n  "db_password" : "two words\\u00e9",\n  "note": "caf\\u00e9 \\"quoted\\"\\n/Users/alice/x",\n  "n": 3\n}'
    const {text: out, hits} = redact(text)
    // same length as the decoded value (10 characters): `REDACTED1` padded with x
    expect(out).toBe('{\n  "db_password" : "REDACTED1x",\n  "note": "caf\\u00e9 \\"quoted\\"\\n/Users/user1/x",\n  "n": 3\n}')
    expect(JSON.parse(out)).toEqual({db_password: 'REDACTED1x', note: 'café "quoted"\n/Users/user1/x', n: 3})
    expect(hits.map((h) => [h.kind, h.pointer])).toEqual([['secret', '/db_password'], ['home', '/note']])
    // hits are offsets into the output
    expect(out.slice(hits[1]!.start, hits[1]!.end)).toBe('user1')
  })

  it('a name spelled with escapes is found as the text it decodes to, and re-encoded', () => {
    const {text: out} = redact('["\\u0061lice@corp-mail.io"]')
    expect(JSON.parse(out)).toEqual(['user1@host1xxxx.io'])
  })

  it('after a literal backslash in the decoded text (`\\\\` in the file), a home, a token and a setting are still found', () => {
    // found by the planted-secrets property (seeds 1801391940, -1888909306)
    const {text: out} = redact('{"a": "\\\\/Users/alice/x", "b": "\\\\npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "c": "\\\\GITHUB_TOKEN=abc123def456gh"}')
    const value = JSON.parse(out) as Record<string, string>
    expect(value.a).toBe('\\/Users/user1/x')
    expect(value.b).toBe('\\npm_REDACTED1xxxxxxxxxxxxxxxxxxxxxxxxxxx')
    expect(value.c).toBe('\\GITHUB_TOKEN=REDACTED2xxxxx')
  })

  it('names a hit by its JSON pointer, through arrays and nested objects', () => {
    const {hits} = redact('{"a": [{"b": "x"}, {"c/d": ["ghp_0123456789abcdefghijABCDEFGHIJklmnop"]}]}')
    expect(hits.map((h) => h.pointer)).toEqual(['/a/1/c~1d/0'])
  })

  it('a file cut short is scanned all the same: its last string runs to the end', () => {
    const {text: out} = redact('{"feedback": "see /Users/alice/src/x.py and GITHUB_TOKEN=abc123def456gh')
    expect(out).toBe('{"feedback": "see /Users/user1/src/x.py and GITHUB_TOKEN=REDACTED1xxxxx')
  })

  it('keeps bytes that are not UTF-8 (the file is read one char per byte)', () => {
    const latin1 = Buffer.from('{"x": "caf\xe9 /Users/alice/y"}', 'latin1').toString('latin1')
    expect(redact(latin1).text).toBe('{"x": "caf\xe9 /Users/user1/y"}')
  })
})
