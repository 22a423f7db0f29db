/**
 * JSON as Python's `json.load` reads it (GuardKit wrote these files with `json.dump`): NaN,
 * Infinity and -Infinity are accepted, duplicate keys keep the last value, control characters in
 * strings are refused. Errors carry line and column (1-based), which `JSON.parse` does not give
 * on every Node version.
 */
export type JsonParse =
  | {readonly ok: true; readonly value: unknown}
  | {readonly ok: false; readonly message: string; readonly line: number; readonly column: number; readonly atEnd: boolean}

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    /** The input ran out (an unterminated string reports where it started). */
    readonly eof = false,
  ) {
    super(message)
  }
}

export function parsePythonJson(text: string): JsonParse {
  const parser = new Parser(text)
  try {
    parser.skipWs()
    const value = parser.value(0)
    parser.skipWs()
    if (parser.pos < text.length) throw new JsonSyntaxError('Extra data after the JSON value', parser.pos)
    return {ok: true, value}
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error
    const {line, column} = position(text, error.offset)
    const atEnd = error.eof || text.slice(error.offset).trim() === ''
    return {ok: false, message: error.message, line, column, atEnd}
  }
}

const MAX_DEPTH = 512
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y

class Parser {
  pos = 0
  constructor(private readonly text: string) {}

  skipWs(): void {
    const t = this.text
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos)
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++
      else break
    }
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new JsonSyntaxError('Nesting too deep', this.pos)
    const t = this.text
    const c = t[this.pos]
    if (c === '{') return this.object(depth)
    if (c === '[') return this.array(depth)
    if (c === '"') return this.string()
    for (const [word, value] of WORDS) {
      if (t.startsWith(word, this.pos)) {
        this.pos += word.length
        return value
      }
    }
    NUMBER.lastIndex = this.pos
    const m = NUMBER.exec(t)
    if (m) {
      this.pos += m[0].length
      return Number(m[0])
    }
    throw new JsonSyntaxError('Expecting value', this.pos)
  }

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    this.pos++
    this.skipWs()
    if (this.text[this.pos] === '}') {
      this.pos++
      return out
    }
    for (;;) {
      if (this.text[this.pos] !== '"') throw new JsonSyntaxError('Expecting property name enclosed in double quotes', this.pos)
      const key = this.string()
      this.skipWs()
      if (this.text[this.pos] !== ':') throw new JsonSyntaxError("Expecting ':' delimiter", this.pos)
      this.pos++
      this.skipWs()
      const value = this.value(depth + 1)
      // an own property even for "__proto__", as JSON.parse does
      Object.defineProperty(out, key, {value, writable: true, enumerable: true, configurable: true})
      this.skipWs()
      const c = this.text[this.pos]
      this.pos++
      if (c === '}') return out
      if (c !== ',') throw new JsonSyntaxError("Expecting ',' delimiter", this.pos - 1)
      this.skipWs()
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = []
    this.pos++
    this.skipWs()
    if (this.text[this.pos] === ']') {
      this.pos++
      return out
    }
    for (;;) {
      out.push(this.value(depth + 1))
      this.skipWs()
      const c = this.text[this.pos]
      this.pos++
      if (c === ']') return out
      if (c !== ',') throw new JsonSyntaxError("Expecting ',' delimiter", this.pos - 1)
      this.skipWs()
    }
  }

  private string(): string {
    const t = this.text
    const start = this.pos
    this.pos++
    let out = ''
    let run = this.pos
    for (;;) {
      if (this.pos >= t.length) throw new JsonSyntaxError('Unterminated string starting at', start, true)
      const c = t.charCodeAt(this.pos)
      if (c === 0x22) {
        out += t.slice(run, this.pos)
        this.pos++
        return out
      }
      if (c < 0x20) throw new JsonSyntaxError('Invalid control character in string', this.pos)
      if (c !== 0x5c) {
        this.pos++
        continue
      }
      out += t.slice(run, this.pos)
      const e = t[this.pos + 1]
      if (e === 'u') {
        const hex = t.slice(this.pos + 2, this.pos + 6)
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsonSyntaxError('Invalid \\uXXXX escape', this.pos)
        out += String.fromCharCode(parseInt(hex, 16))
        this.pos += 6
      } else {
        const mapped = e === undefined ? undefined : ESCAPES[e]
        if (mapped === undefined) throw new JsonSyntaxError('Invalid \\escape', this.pos)
        out += mapped
        this.pos += 2
      }
      run = this.pos
    }
  }
}

const WORDS: ReadonlyArray<readonly [string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
]

const ESCAPES: Readonly<Record<string, string>> = {'"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t'}

function position(text: string, offset: number): {line: number; column: number} {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++
      lineStart = i + 1
    }
  }
  return {line, column: offset - lineStart + 1}
}
