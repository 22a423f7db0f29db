import {describe, expect, it} from 'vitest'
import {describeTurns, formatTurns, padEnd, truncate, visibleWidth, wrap} from '../../../../src/render/text/layout.js'

describe('text layout', () => {
  it('writes turns as compact ranges', () => {
    expect(formatTurns([1, 3, 4, 5, 17])).toBe('t1,t3–t5,t17')
    expect(formatTurns([2, 1])).toBe('t1,t2')
    expect(formatTurns([])).toBe('')
    expect(describeTurns([5])).toBe('turn 5')
    expect(describeTurns([1, 3, 4, 5, 6])).toBe('turns 1, 3–6')
  })

  it('measures display columns: wide CJK and emoji take two, combining marks none, colour codes none', () => {
    expect(visibleWidth('\x1b[31m✗ café\x1b[39m')).toBe(6)
    expect(visibleWidth('🙂x')).toBe(3)
    expect(visibleWidth('漢字 ok')).toBe(7)
    // e + U+0301 COMBINING ACUTE ACCENT is one column; a skin-toned thumbs-up is one emoji, two columns
    expect(visibleWidth('cafe\u0301')).toBe(4)
    expect(visibleWidth('👍🏽')).toBe(2)
    expect(padEnd('漢字', 6)).toBe('漢字  ')
  })

  it('cuts at a word boundary, never inside a word that fits, nor inside a character', () => {
    expect(truncate('the Coach text-matches against an absent requirements_met', 48)).toBe('the Coach text-matches against an absent…')
    expect(truncate('abcdef', 4)).toBe('abc…')
    expect(truncate('🙂🙂🙂', 3)).toBe('🙂…')
    expect(truncate('漢字漢字', 6)).toBe('漢字…')
    expect(truncate('cafe\u0301s', 5)).toBe('cafe\u0301s')
    expect(truncate('cafe\u0301s and more', 5)).toBe('cafe\u0301…')
  })

  it('wraps on spaces, keeps line breaks, and cuts words longer than a line', () => {
    expect(wrap('the quick brown fox jumps', 10)).toEqual(['the quick', 'brown fox', 'jumps'])
    expect(wrap('a\nb c', 10)).toEqual(['a', 'b c'])
    expect(wrap('abcdefghijklmnop', 8)).toEqual(['abcdefgh', 'ijklmnop'])
    // by columns: four wide characters fill a line of eight
    expect(wrap('漢字漢字 漢字', 8)).toEqual(['漢字漢字', '漢字'])
  })
})
