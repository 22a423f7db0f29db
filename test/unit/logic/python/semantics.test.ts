import {describe, expect, it} from 'vitest'
import {pyFloatRepr, pyFormatFixed, pyFormatPercent} from '../../../../src/logic/python/format.js'
import {md5Hex8} from '../../../../src/logic/python/md5.js'
import {comparePaths, joinPath, normalizePath, relativeTo} from '../../../../src/logic/python/pathlib.js'
import {pyRegex} from '../../../../src/logic/python/regex.js'
import {pyRepr} from '../../../../src/logic/python/repr.js'
import {pyLen, pySlice, pySplitWhitespace, pyStrip} from '../../../../src/logic/python/strings.js'

// Expected values below were checked against CPython 3.11 on this machine (docs/guardkit-logic.md §3).
describe('Python str semantics (docs/guardkit-logic.md §3.1-3.2)', () => {
  it('counts and slices code points, never splitting a surrogate pair', () => {
    expect(pyLen('a😀b')).toBe(3)
    expect(pySlice('😀😀😀', 0, 2)).toBe('😀😀')
    expect(pySlice('abc', -2)).toBe('bc')
  })
  it('strips Python whitespace, not JS whitespace', () => {
    expect(pyStrip('\u001c x \u0085')).toBe('x')
    expect(pyStrip('\ufeffx')).toBe('\ufeffx')
    expect(pySplitWhitespace(' a\u00a0b\u3000c ')).toEqual(['a', 'b', 'c'])
  })
})

describe('md5 signatures (docs/guardkit-logic.md §3.4)', () => {
  it('is the first 8 hex digits of md5 of UTF-8', () => {
    expect(md5Hex8('')).toBe('d41d8cd9')
  })
})

describe('repr (docs/guardkit-logic.md §3.9)', () => {
  it('prints lists of dicts and strings as Python does', () => {
    expect(pyRepr([{criterion_id: 'AC-001', status: 'incomplete'}])).toBe("[{'criterion_id': 'AC-001', 'status': 'incomplete'}]")
    expect(pyRepr(["it's", 'a"b', 'é\u200b\n'])).toBe(`["it's", 'a"b', 'é\\u200b\\n']`)
    expect(pyRepr([true, null, 1.5])).toBe('[True, None, 1.5]')
  })
})

describe('float formatting (docs/guardkit-logic.md §3.10)', () => {
  it('prints floats with repr', () => {
    expect(pyFloatRepr(80)).toBe('80.0')
    expect(pyFloatRepr(85.5)).toBe('85.5')
    expect(pyFloatRepr(1e16)).toBe('1e+16')
    expect(pyFloatRepr(0.0001)).toBe('0.0001')
    expect(pyFloatRepr(0.00001)).toBe('1e-05')
  })
  it('rounds exact ties half to even, where JS rounds up', () => {
    expect(pyFormatPercent(29 / 40)).toBe('72%')
    expect(pyFormatPercent(33 / 40)).toBe('82%')
    expect(pyFormatPercent(0.75)).toBe('75%')
    expect(pyFormatPercent(2 / 3)).toBe('67%')
    expect(pyFormatFixed(12.5, 0)).toBe('12')
    expect(pyFormatFixed(87.5, 0)).toBe('88')
    expect(pyFormatFixed(0.125, 2)).toBe('0.12')
  })
})

describe('pathlib (docs/guardkit-logic.md §3.11)', () => {
  it('joins with an absolute right-hand side winning', () => {
    expect(joinPath('/wt', 'tests/a.py')).toBe('/wt/tests/a.py')
    expect(joinPath('/wt', '/wt/tests/a.py')).toBe('/wt/tests/a.py')
  })
  it('normalises lexically', () => {
    expect(normalizePath('./tests/./x.py')).toBe('tests/x.py')
    expect(normalizePath('//a/b/')).toBe('//a/b')
    expect(normalizePath('///a')).toBe('/a')
    expect(normalizePath('')).toBe('.')
    expect(relativeTo('/wt/../wt/x', '/wt')).toBe('../wt/x')
    expect(relativeTo('tests/x', '/wt')).toBeNull()
  })
  it('orders component by component', () => {
    expect(['tests/a-b/x.py', 'tests/a/x.py'].sort(comparePaths)).toEqual(['tests/a/x.py', 'tests/a-b/x.py'])
  })
})

describe('regex translation (docs/guardkit-logic.md §3.6)', () => {
  it('uses Python classes for \\d \\s and .', () => {
    expect(pyRegex('^\\d+$').test('١٢')).toBe(true)
    expect(pyRegex('a\\sb').test('a\u0085b')).toBe(true)
    expect(pyRegex('a\\sb').test('a\ufeffb')).toBe(false)
    expect(pyRegex('a.b').test('a\rb')).toBe(true)
    expect(pyRegex('([^\\s,]+)').exec('x, y')![1]).toBe('x')
  })
})
