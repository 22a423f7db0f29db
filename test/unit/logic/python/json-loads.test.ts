import {describe, expect, it} from 'vitest'
import {pyTypeNameAt} from '../../../../src/logic/python/builtins.js'
import {pyJsonDumps} from '../../../../src/logic/python/json-dumps.js'
import {pyJsonLoads} from '../../../../src/logic/python/json-loads.js'
import {clonePyJson} from '../../../../src/logic/python/json-numbers.js'
import {pyRepr, pyStrAt} from '../../../../src/logic/python/repr.js'

// Every expected value was printed by CPython 3.11.7: str(e) of json.loads(text)'s JSONDecodeError,
// repr(json.loads(text)), json.dumps(json.loads(text)).
const ERRORS: [string, string][] = [
  ['{not json', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
  ['', 'Expecting value: line 1 column 1 (char 0)'],
  ['   ', 'Expecting value: line 1 column 4 (char 3)'],
  ['[1,]', 'Expecting value: line 1 column 4 (char 3)'],
  ['{"a":1,}', 'Expecting property name enclosed in double quotes: line 1 column 8 (char 7)'],
  ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
  ['{"a":1 "b":2}', "Expecting ',' delimiter: line 1 column 8 (char 7)"],
  ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
  ['"abc', 'Unterminated string starting at: line 1 column 1 (char 0)'],
  ['"a\\x"', 'Invalid \\escape: line 1 column 3 (char 2)'],
  ['"\\u12"', 'Invalid \\uXXXX escape: line 1 column 3 (char 2)'],
  ['"\\u1234', 'Invalid \\uXXXX escape: line 1 column 3 (char 2)'],
  ['"\\ud800\\u00"', 'Invalid \\uXXXX escape: line 1 column 9 (char 8)'],
  ['"\\ud83d\\ude0"', 'Invalid \\uXXXX escape: line 1 column 9 (char 8)'],
  ['{"a":"\\uZZZZ"}', 'Invalid \\uXXXX escape: line 1 column 8 (char 7)'],
  ['"a\u0001b"', 'Invalid control character at: line 1 column 3 (char 2)'],
  ['"\u{1F600}\u0001"', 'Invalid control character at: line 1 column 3 (char 2)'],
  ['"a\\', 'Unterminated string starting at: line 1 column 1 (char 0)'],
  ['{"a":1}x', 'Extra data: line 1 column 8 (char 7)'],
  ['{"a":1}\n\n ]', 'Extra data: line 3 column 2 (char 10)'],
  ['\ufeff{}', 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)'],
  ['[', 'Expecting value: line 1 column 2 (char 1)'],
  ['{', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
  ['{"a":', 'Expecting value: line 1 column 6 (char 5)'],
  ['nul', 'Expecting value: line 1 column 1 (char 0)'],
  ['-', 'Expecting value: line 1 column 1 (char 0)'],
  ['[1,-x]', 'Expecting value: line 1 column 4 (char 3)'],
  ['1.', 'Extra data: line 1 column 2 (char 1)'],
  ['01', 'Extra data: line 1 column 2 (char 1)'],
  ['1e', 'Extra data: line 1 column 2 (char 1)'],
  ['-Infinityx', 'Extra data: line 1 column 10 (char 9)'],
  ['[1,2', "Expecting ',' delimiter: line 1 column 5 (char 4)"],
  ['{"a"', "Expecting ':' delimiter: line 1 column 5 (char 4)"],
  ['{"é": x}', 'Expecting value: line 1 column 7 (char 6)'],
  ['[\n\u{1F600}]', 'Expecting value: line 2 column 1 (char 2)'],
  ['\n\n  {x', 'Expecting property name enclosed in double quotes: line 3 column 4 (char 5)'],
  ['[1,\n 2,\n x]', 'Expecting value: line 3 column 2 (char 9)'],
]

describe('json.loads (CPython 3.11)', () => {
  it.each(ERRORS)('%j fails with %j', (text, message) => {
    const r = pyJsonLoads(text)
    expect(r.ok).toBe(false)
    expect(r.ok ? null : r.error.text).toBe(message)
  })

  it('decodes what CPython decodes: surrogate pairs joined, lone surrogates kept, NaN and ±Infinity', () => {
    expect(pyJsonLoads('"\\ud800\\udc00"')).toEqual({ok: true, value: '\u{10000}'})
    expect(pyJsonLoads('"\\ud800\\u0041"')).toEqual({ok: true, value: '\ud800A'})
    expect(pyJsonLoads('"\\ud800x"')).toEqual({ok: true, value: '\ud800x'})
    const r = pyJsonLoads('[NaN, Infinity, -Infinity]')
    expect(r.ok && pyRepr(r.value)).toBe('[nan, inf, -inf]')
  })

  it('keeps each number\'s Python type for repr, str() and json.dumps', () => {
    const text = '{"a": 1.0, "b": 1, "c": 1e-05, "d": 2.5e+16, "e": 12345678901234567890, "f": -0.0, "g": [1.50, 100E0, -0], "h": 1e400}'
    const r = pyJsonLoads(text)
    if (!r.ok) throw new Error(r.error.text)
    // repr(json.loads(text))
    expect(pyRepr(r.value)).toBe("{'a': 1.0, 'b': 1, 'c': 1e-05, 'd': 2.5e+16, 'e': 12345678901234567890, 'f': -0.0, 'g': [1.5, 100.0, 0], 'h': inf}")
    // json.dumps(json.loads(text))
    expect(pyJsonDumps(r.value)).toBe('{"a": 1.0, "b": 1, "c": 1e-05, "d": 2.5e+16, "e": 12345678901234567890, "f": -0.0, "g": [1.5, 100.0, 0], "h": Infinity}')
    // f"{d['a']}", type(d['a']).__name__
    expect(pyStrAt(r.value, 'a')).toBe('1.0')
    expect([pyTypeNameAt(r.value, 'a'), pyTypeNameAt(r.value, 'b'), pyTypeNameAt(r.value, 'e')]).toEqual(['float', 'int', 'int'])
    // the values stay plain numbers for the model's arithmetic and comparisons
    expect(typeof (r.value as {a: unknown}).a).toBe('number')
  })

  it('keeps the types through a copy (clonePyJson), not only in the parsed object', () => {
    const r = pyJsonLoads('{"completion_promises": [{"criterion_id": "AC-001", "confidence": 1.0}]}')
    if (!r.ok) throw new Error(r.error.text)
    expect(pyRepr(clonePyJson(r.value))).toBe("{'completion_promises': [{'criterion_id': 'AC-001', 'confidence': 1.0}]}")
    expect(pyRepr(structuredClone(r.value))).toBe("{'completion_promises': [{'criterion_id': 'AC-001', 'confidence': 1}]}")
  })

  it('keeps the first place of a duplicate key and the last value, and "__proto__" as a plain key', () => {
    const r = pyJsonLoads('{"a": 1, "b": 2, "a": 3.0, "__proto__": 4}')
    expect(r.ok && pyRepr(r.value)).toBe("{'a': 3.0, 'b': 2, '__proto__': 4}")
    const back = pyJsonLoads('{"a": 1.0, "a": 1}')
    expect(back.ok && pyRepr(back.value)).toBe("{'a': 1}")
  })
})
