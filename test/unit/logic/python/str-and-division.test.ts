import {describe, expect, it} from 'vitest'
import {pyFloorDiv} from '../../../../src/logic/python/format.js'
import {pyStr} from '../../../../src/logic/python/repr.js'

// Expected values checked with CPython 3.11: print(1//0.1, -7//2, 7.5//2, 2400//60, 4800//60), str(None), f"{[1, 'a']}".
describe('floor division (used by "timed out after {t}s ({t // 60} min)")', () => {
  it('rounds towards -inf and follows CPython for floats', () => {
    expect(pyFloorDiv(2400, 60)).toBe(40)
    expect(pyFloorDiv(4800, 60)).toBe(80)
    expect(pyFloorDiv(-7, 2)).toBe(-4)
    expect(pyFloorDiv(7.5, 2)).toBe(3)
    expect(pyFloorDiv(1, 0.1)).toBe(9)
  })
})

describe('str() of JSON values in f-strings', () => {
  it('prints strings as they are and other values as repr', () => {
    expect(pyStr('x')).toBe('x')
    expect(pyStr(null)).toBe('None')
    expect(pyStr(true)).toBe('True')
    expect(pyStr([1, 'a'])).toBe("[1, 'a']")
  })
})
