import stringWidth from 'string-width'
import {describe, expect, it} from 'vitest'
import {displayWidth, graphemes, NARROW, takeWidth} from '../../../src/shared/display-width.js'

describe('display width (string-width, loaded only for text that needs it)', () => {
  it('every code point of the fast path is one column, as string-width counts it', () => {
    const wrong: string[] = []
    for (let cp = 0x20; cp <= 0x2800; cp++) {
      const ch = String.fromCodePoint(cp)
      if (NARROW.test(ch) && stringWidth(ch) !== 1) wrong.push(`U+${cp.toString(16).padStart(4, '0')} ${ch} = ${stringWidth(ch)}`)
    }
    expect(wrong).toEqual([])
  })

  it('the fast path never holds a mark that joins its neighbour (a cut there would split a character)', () => {
    for (let cp = 0x20; cp <= 0x2800; cp++) {
      const ch = String.fromCodePoint(cp)
      if (NARROW.test(ch)) expect(graphemes(`a${ch}`), `U+${cp.toString(16)}`).toHaveLength(2)
    }
  })

  it('agrees with string-width on the report\'s own symbols, CJK, emoji and combining marks', () => {
    for (const s of ['plain ascii', 'TASK-DB-003  ✗ recorded · 13 turns — wasted …', '└▶ 2 STALL_FIRED', '漢字 ok', '👍🏽 fine', 'cafe\u0301', '◽ box', 'Ünïcödé', '⚠ 3', '\u00ad', 'x\u200by']) {
      expect(displayWidth(s), s).toBe(stringWidth(s))
    }
  })

  it('cuts by columns, never inside a character', () => {
    expect(takeWidth('漢字漢字', 5)).toBe('漢字')
    expect(takeWidth('cafe\u0301s', 4)).toBe('cafe\u0301')
    expect(takeWidth('👍🏽👍🏽', 3)).toBe('👍🏽')
  })
})
