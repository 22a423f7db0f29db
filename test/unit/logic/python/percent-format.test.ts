import {describe, expect, it} from 'vitest'
import {PyException} from '../../../../src/logic/python/builtins.js'
import {pyPercentFormat} from '../../../../src/logic/python/percent-format.js'
import {PyFloat} from '../../../../src/logic/python/repr.js'

// Every expected value was printed by CPython 3.11.7: `fmt % tuple(args)` (the float 1.0 is PyFloat here,
// because a JS number cannot say it is a float).
const CASES: [string, unknown[], string][] = [
  ['%s', [null], 'None'],
  ['%s', [true], 'True'],
  ['%s', [new PyFloat(1)], '1.0'],
  ['%r', ['a'], "'a'"],
  ['%s', [{a: null, b: [1.5, true]}], "{'a': None, 'b': [1.5, True]}"],
  ['%s', [[1, 'a', null]], "[1, 'a', None]"],
  ['%r', [new PyFloat(1e16)], '1e+16'],
  ['%s', [1e-5], '1e-05'],
  ['%d', [2.9], '2'],
  ['%d', [true], '1'],
  ['%5d', [-3], '   -3'],
  ['%05d', [-3], '-0003'],
  ['%-5d|', [7], '7    |'],
  ['%+d', [5], '+5'],
  ['% d', [5], ' 5'],
  ['%.2f', [2.675], '2.67'],
  ['%.0f', [0.5], '0'],
  ['%.0f', [1.5], '2'],
  ['%f', [1], '1.000000'],
  ['%.1f%%', [99.95], '100.0%'],
  ['%08.3f', [-3.14159], '-003.142'],
  ['%+.1f', [2.25], '+2.2'],
  ['%F', [Number.POSITIVE_INFINITY], 'INF'],
  ['%f', [Number.NaN], 'nan'],
  ['%x', [255], 'ff'],
  ['%#x', [255], '0xff'],
  ['%X', [255], 'FF'],
  ['%o', [8], '10'],
  ['%#o', [8], '0o10'],
  ['%c', [65], 'A'],
  ['%.3s', ['abcdef'], 'abc'],
  ['%10s|', ['ab'], '        ab|'],
  ['%-10s|', ['ab'], 'ab        |'],
  ['%5.1s|', ['xyz'], '    x|'],
  ['%*d', [5, 42], '   42'],
  ['%.*s', [2, 'abc'], 'ab'],
  ['%%', [], '%'],
  ['%s %r', ['é', 'é'], "é 'é'"],
  ['No completion_promises in current turn — recovered from player_turn_%d.json (%d promises)', [1, 6], 'No completion_promises in current turn — recovered from player_turn_1.json (6 promises)'],
]

const ERRORS: [string, unknown[], string][] = [
  ['%s and %s', [1], 'TypeError: not enough arguments for format string'],
  ['%s', [1, 2], 'TypeError: not all arguments converted during string formatting'],
  ['%d', ['x'], 'TypeError: %d format: a real number is required, not str'],
  ['%f', ['x'], 'TypeError: must be real number, not str'],
  ['%x', [1.5], 'TypeError: %x format: an integer is required, not float'],
]

describe('printf-style formatting (`fmt % args`, the logger\'s formatting)', () => {
  it.each(CASES)('%j with %j gives %j', (fmt, args, expected) => {
    expect(pyPercentFormat(fmt, args)).toBe(expected)
  })

  it.each(ERRORS)('%j with %j raises %s', (fmt, args, expected) => {
    expect(() => pyPercentFormat(fmt, args)).toThrow(PyException)
    expect(() => pyPercentFormat(fmt, args)).toThrow(expected)
  })
})
