import {fc, test} from '../../../helpers/prop.js'
import {describe, expect, it} from 'vitest'
import {pyJsonDumps} from '../../../../src/logic/python/json-dumps.js'
import {pyJsonLoads} from '../../../../src/logic/python/json-loads.js'
import {clonePyJson} from '../../../../src/logic/python/json-numbers.js'
import {pyRepr} from '../../../../src/logic/python/repr.js'
import {runs} from '../../../helpers/arbitraries/config.js'
import {CPYTHON} from '../../../helpers/cpython.js'

/**
 * json.loads, repr() and json.dumps as GuardKit's Python runs them (docs/guardkit-logic.md §3.9, §3.12; docs/guardkit-logic.md §6.1 step 1 prints
 * a JSONDecodeError into the Coach's feedback). Two checks: CPython's own answers on damaged and intact
 * documents (test/fixtures/cpython, committed), and a round trip over generated JSON with typed numbers:
 * text → pyJsonLoads → pyRepr → a Python-literal reader written here → the generated value, type for type.
 */

// A document that is one number has no container to keep its Python type in (src/logic/python/json-numbers.ts):
// `1.0` alone reads as 1. A documented limit (docs/properties.md); GuardKit's files are dicts and lists.
const BARE_NUMBER = /^[ \t\n\r]*-?\d[\d.eE+-]*[ \t\n\r]*$/
const documents = CPYTHON.jsonLoads.filter((c) => !('repr' in c && BARE_NUMBER.test(c.text)))

describe(`json.loads / repr / json.dumps against CPython ${CPYTHON.python}, ${documents.length} documents`, () => {
  it('gives CPython\'s error text, or its repr() and json.dumps() of the value', () => {
    const wrong = documents.flatMap((c) => {
      const r = pyJsonLoads(c.text)
      const got = r.ok ? {repr: pyRepr(r.value), dumps: pyJsonDumps(r.value)} : {error: r.error.text}
      const want = 'error' in c ? {error: c.error} : {repr: c.repr, dumps: c.dumps}
      return JSON.stringify(got) === JSON.stringify(want) ? [] : [{text: c.text, want, got}]
    })
    expect(wrong).toEqual([])
  })
})

// ---- generated JSON with typed numbers -------------------------------------------------------------

/** A JSON value whose numbers say what Python will make of them. */
type Typed =
  | {t: 'int'; v: bigint}
  | {t: 'float'; v: number}
  | {t: 'str'; v: string}
  | {t: 'bool'; v: boolean}
  | {t: 'none'}
  | {t: 'list'; v: Typed[]}
  | {t: 'dict'; v: [string, Typed][]}

const intArb = fc.oneof(fc.bigInt({min: -(10n ** 25n), max: 10n ** 25n}), fc.integer({min: -1000, max: 1000}).map(BigInt)).map((v): Typed => ({t: 'int', v}))
const floatArb = fc.oneof(
  fc.double({noNaN: true, noDefaultInfinity: true}),
  fc.integer({min: -1e6, max: 1e6}), // integral floats: 1.0, -3.0, 0.0
  fc.constantFrom(-0, 1e16, 2.5e16, 1e-5, 1e22, 0.1, 1e-7),
).map((v): Typed => ({t: 'float', v}))
const textArb = fc.string({unit: fc.oneof(fc.constantFrom('a', 'é', '\u{1F600}', "'", '"', '\\', '\n', '\t', '\u0001', '\u2028', '\ufeff', ' '), fc.string({unit: 'binary', minLength: 1, maxLength: 1})), maxLength: 12})
const leaf: fc.Arbitrary<Typed> = fc.oneof(intArb, floatArb, textArb.map((v): Typed => ({t: 'str', v})), fc.boolean().map((v): Typed => ({t: 'bool', v})), fc.constant<Typed>({t: 'none'}))
const {tree} = fc.letrec<{tree: Typed}>((tie) => ({
  tree: fc.oneof(
    {depthSize: 'small', withCrossShrink: true},
    leaf,
    fc.array(tie('tree'), {maxLength: 4}).map((v): Typed => ({t: 'list', v})),
    fc.uniqueArray(fc.tuple(textArb, tie('tree')), {maxLength: 4, selector: ([k]) => k}).map((v): Typed => ({t: 'dict', v})),
  ),
}))

/** JSON text for a typed value: floats always with a `.`, an exponent or both, in several spellings. */
function jsonText(x: Typed, spelling: number): string {
  switch (x.t) {
    case 'int':
      return x.v.toString()
    case 'float': {
      const s = Object.is(x.v, -0) ? '-0.0' : String(x.v)
      const withPoint = /[.e]/.test(s) ? s : `${s}.0`
      return spelling % 3 === 1 ? withPoint.replace('e', 'E') : spelling % 3 === 2 && !/e/.test(withPoint) ? `${withPoint}0e0` : withPoint
    }
    case 'str':
      return JSON.stringify(x.v)
    case 'bool':
      return String(x.v)
    case 'none':
      return 'null'
    case 'list':
      return `[${x.v.map((e, i) => jsonText(e, spelling + i)).join(', ')}]`
    case 'dict':
      return `{${x.v.map(([k, e], i) => `${JSON.stringify(k)}: ${jsonText(e, spelling + i)}`).join(', ')}}`
  }
}

/** A reader of Python literals (what repr() prints), written for this test: not the code under test. */
function readPython(text: string): Typed {
  let i = 0
  const fail = (what: string): never => {
    throw new Error(`${what} at ${i} in ${text}`)
  }
  const value = (): Typed => {
    const c = text[i]
    if (c === '[') {
      i++
      const out: Typed[] = []
      while (text[i] !== ']') {
        out.push(value())
        if (text.startsWith(', ', i)) i += 2
        else if (text[i] !== ']') fail('list')
      }
      i++
      return {t: 'list', v: out}
    }
    if (c === '{') {
      i++
      const out: [string, Typed][] = []
      while (text[i] !== '}') {
        const key = value()
        if (key.t !== 'str' || !text.startsWith(': ', i)) fail('dict key')
        i += 2
        out.push([(key as {v: string}).v, value()])
        if (text.startsWith(', ', i)) i += 2
        else if (text[i] !== '}') fail('dict')
      }
      i++
      return {t: 'dict', v: out}
    }
    if (c === "'" || c === '"') return {t: 'str', v: str(c)}
    for (const [word, v] of [['None', {t: 'none'}], ['True', {t: 'bool', v: true}], ['False', {t: 'bool', v: false}], ['inf', {t: 'float', v: Infinity}], ['-inf', {t: 'float', v: -Infinity}]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length
        return v as Typed
      }
    }
    const m = /^-?\d+(\.\d+)?(e[-+]\d+)?/.exec(text.slice(i)) ?? fail('number')
    i += m[0].length
    return m[1] === undefined && m[2] === undefined ? {t: 'int', v: BigInt(m[0])} : {t: 'float', v: Number(m[0])}
  }
  const str = (quote: string): string => {
    i++
    let out = ''
    while (text[i] !== quote) {
      if (i >= text.length) fail('string')
      if (text[i] !== '\\') {
        out += text[i++]
        continue
      }
      const e = text[i + 1]!
      const simple: Record<string, string> = {n: '\n', r: '\r', t: '\t', '\\': '\\', "'": "'", '"': '"'}
      if (simple[e] !== undefined) {
        out += simple[e]
        i += 2
      } else {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : fail('escape')
        out += String.fromCodePoint(parseInt(text.slice(i + 2, i + 2 + len), 16))
        i += 2 + len
      }
    }
    i++
    return out
  }
  const v = value()
  if (i !== text.length) fail('trailing text')
  return v
}

/** Typed values as comparable JSON: bigints and -0 spelled out. */
function key(x: Typed): unknown {
  switch (x.t) {
    case 'int':
      return ['int', x.v.toString()]
    case 'float':
      return ['float', Object.is(x.v, -0) ? '-0' : String(x.v)]
    case 'list':
      return ['list', x.v.map(key)]
    case 'dict':
      return ['dict', x.v.map(([k, e]) => [k, key(e)])]
    default:
      return x
  }
}

describe('a Python-repr round trip over generated JSON', () => {
  test.prop([tree, fc.nat(5)], runs(400))('repr(json.loads(text)) reads back as the value the text holds, type for type', (leafOrTree, spelling) => {
    const x: Typed = {t: 'list', v: [leafOrTree]} // a container at the top (see BARE_NUMBER)
    const loaded = pyJsonLoads(jsonText(x, spelling))
    expect(loaded.ok).toBe(true)
    if (!loaded.ok) return
    expect(key(readPython(pyRepr(loaded.value)))).toEqual(key(x))
  })

  test.prop([tree], runs(300))('json.dumps of what json.loads read (also after a copy) reads back the same', (leafOrTree) => {
    const x: Typed = {t: 'list', v: [leafOrTree]}
    const loaded = pyJsonLoads(jsonText(x, 0))
    if (!loaded.ok) throw new Error(loaded.error.text)
    const again = pyJsonLoads(pyJsonDumps(clonePyJson(loaded.value)))
    expect(again.ok && pyRepr(again.value)).toBe(pyRepr(loaded.value))
  })
})
