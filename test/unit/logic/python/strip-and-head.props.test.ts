import {fc, test} from '../../../helpers/prop.js'
import {describe, expect} from 'vitest'
import {pyHead, pyLstrip, pyRstrip, pyStrip} from '../../../../src/logic/python/strings.js'
import {PY_WHITESPACE_CHARS} from '../../../helpers/arbitraries/index.js'

/**
 * docs/guardkit-logic.md §3.1: `s[:n]`, `strip()`, `lstrip(chars)` and `rstrip(chars)` work on code points. The model
 * walks UTF-16 units for speed (they run on every log line); here each is checked against its
 * definition on code points (`Array.from`), on text mixing whitespace, astral characters and lone
 * surrogates (which Python keeps as code points of their own). 300 runs each.
 */
const units = fc.constantFrom('a', ' ', '\t', '\u3000', '\u2028', '😀', '\ud83d', '\ude00', 'é', 'x', '\u0085', ...PY_WHITESPACE_CHARS)
const text = fc.array(units, {maxLength: 24}).map((parts) => parts.join(''))
const cps = (s: string): string[] => Array.from(s)
const PY_WS = new Set(PY_WHITESPACE_CHARS)

function lstripDef(s: string, strip: (c: string) => boolean): string {
  const c = cps(s)
  let i = 0
  while (i < c.length && strip(c[i]!)) i++
  return c.slice(i).join('')
}

function rstripDef(s: string, strip: (c: string) => boolean): string {
  const c = cps(s)
  let j = c.length
  while (j > 0 && strip(c[j - 1]!)) j--
  return c.slice(0, j).join('')
}

describe('code-point string operations (docs/guardkit-logic.md §3.1)', () => {
  test.prop([text], {numRuns: 300})('strip/lstrip/rstrip with no chars remove Python whitespace code points', (s) => {
    const ws = (c: string): boolean => PY_WS.has(c)
    expect(pyLstrip(s)).toBe(lstripDef(s, ws))
    expect(pyRstrip(s)).toBe(rstripDef(s, ws))
    expect(pyStrip(s)).toBe(rstripDef(lstripDef(s, ws), ws))
  })

  test.prop([text, text], {numRuns: 300})('lstrip/rstrip(chars) treat chars as a set of code points, astral ones included', (s, chars) => {
    const set = new Set(cps(chars))
    const inSet = (c: string): boolean => set.has(c)
    expect(pyLstrip(s, chars)).toBe(lstripDef(s, inSet))
    expect(pyRstrip(s, chars)).toBe(rstripDef(s, inSet))
  })

  test.prop([text, fc.integer({min: -30, max: 30})], {numRuns: 300})('s[:n] keeps the first n code points (n < 0: all but the last -n)', (s, n) => {
    expect(pyHead(s, n)).toBe(cps(s).slice(0, n).join(''))
  })
})
