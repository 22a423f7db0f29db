import {describe, expect, it} from 'vitest'
import {pyJsonDump} from '../../../../src/logic/pipeline/index.js'

describe('the bytes of the JSON files GuardKit writes (docs/guardkit-logic.md §3.12)', () => {
  it('matches json.dumps(value, indent=2) with ensure_ascii, DEL and astral characters included', () => {
    const value = {a: '—é😀\u007f\u0001"\\\n', b: [], c: {}, d: [1, 85.5, {x: null, y: true}], e: 1e-5}
    // CPython 3.11: json.dumps(value, indent=2) of the same dict
    const expected = '{\n  "a": "\\u2014\\u00e9\\ud83d\\ude00\\u007f\\u0001\\"\\\\\\n",\n  "b": [],\n  "c": {},\n  "d": [\n    1,\n    85.5,\n    {\n      "x": null,\n      "y": true\n    }\n  ],\n  "e": 1e-05\n}'
    expect(pyJsonDump(value)).toBe(expected)
  })
})
