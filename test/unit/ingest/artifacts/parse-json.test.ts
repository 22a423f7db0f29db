import {describe, expect, it} from 'vitest'
import {fc, test} from '../../../helpers/prop.js'
import {parsePythonJson} from '../../../../src/ingest/artifacts/parse-json.js'

// Expected messages, lines and columns are CPython 3.11's json.loads (JSONDecodeError.msg, .lineno, .colno).
const ERRORS: [string, string, number, number][] = [
  ['{"a": 1,}', 'Expecting property name enclosed in double quotes', 1, 9],
  ['{"a": 1', "Expecting ',' delimiter", 1, 8],
  ['{\n  "a": [1, 2\n', "Expecting ',' delimiter", 3, 1],
  ['{"a": tru}', 'Expecting value', 1, 7],
  ['{\n "turn": 1,\n "x": }', 'Expecting value', 3, 7],
  ['  {"a" 1}', "Expecting ':' delimiter", 1, 8],
  ['', 'Expecting value', 1, 1],
  ['-', 'Expecting value', 1, 1],
]

describe('parsePythonJson', () => {
  it.each(ERRORS)('%j fails where CPython fails: %s at %i:%i', (text, message, line, column) => {
    expect(parsePythonJson(text)).toMatchObject({ok: false, message, line, column})
  })

  it('reports an unterminated document as ending early (a truncated file)', () => {
    expect(parsePythonJson('{"a": [1, 2')).toMatchObject({ok: false, atEnd: true})
    expect(parsePythonJson('{"a": 1,}')).toMatchObject({ok: false, atEnd: false})
  })

  it('refuses raw control characters in strings and data after the value, as CPython does', () => {
    expect(parsePythonJson('{"a": "b\nc"}')).toMatchObject({ok: false, line: 1, column: 9})
    expect(parsePythonJson('[1, 2] x')).toMatchObject({ok: false, line: 1, column: 8})
    expect(parsePythonJson('01')).toMatchObject({ok: false, line: 1, column: 2})
  })

  it("accepts what json.dump writes and JSON.parse does not: NaN, Infinity, -Infinity", () => {
    const r = parsePythonJson('{"a": NaN, "b": -Infinity, "c": Infinity}')
    expect(r.ok).toBe(true)
    const v = (r as {value: Record<string, number>}).value
    expect(Number.isNaN(v['a'])).toBe(true)
    expect([v['b'], v['c']]).toEqual([Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY])
  })

  it('keeps the last of duplicate keys, decodes surrogate pairs, and keeps "__proto__" as a plain key', () => {
    expect(parsePythonJson('{"a":1,"a":2}')).toEqual({ok: true, value: {a: 2}})
    expect(parsePythonJson('{"a": "\\ud83d\\ude00"}')).toEqual({ok: true, value: {a: '😀'}})
    const r = parsePythonJson('{"__proto__": {"x": 1}}') as {ok: true; value: Record<string, unknown>}
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype)
    expect(Object.keys(r.value)).toEqual(['__proto__'])
  })

  test.prop([fc.jsonValue()], {numRuns: 300})('agrees with JSON.parse on every standard JSON document', (value) => {
    const text = JSON.stringify(value, null, 1)
    expect(parsePythonJson(text)).toEqual({ok: true, value: JSON.parse(text)})
  })

  test.prop([fc.jsonValue().map((v) => JSON.stringify(v)), fc.nat()], {numRuns: 300})('never throws on a cut document', (text, at) => {
    const cut = text.slice(0, at % (text.length + 1))
    const r = parsePythonJson(cut)
    if (!r.ok) expect(r.line).toBeGreaterThanOrEqual(1)
  })
})
