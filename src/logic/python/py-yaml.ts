import {parseDocument, type ScalarTag, type Tags} from 'yaml'

export type YamlParse =
  | {readonly ok: true; readonly value: unknown}
  | {readonly ok: false; readonly message: string; readonly line: number | null; readonly column: number | null}

/**
 * YAML as GuardKit reads it (PyYAML `safe_load`, YAML 1.1 resolvers): `yes`/`on` are booleans but
 * `y`/`n` are not, `010` is octal, `1e3` is a string (a float needs a dot), `12:30` is 750.
 * Timestamps stay the strings written (PyYAML makes datetimes; nothing modelled reads them, and
 * strings print as written). Errors carry the line and column of the problem.
 */
export function parsePyYaml(text: string): YamlParse {
  const cached = parsed.get(text)
  if (cached !== undefined) return cached
  const result = deepFreeze(parseUncached(text))
  if (parsed.size >= CACHE_SIZE) parsed.delete(parsed.keys().next().value!)
  parsed.set(text, result)
  return result
}

// A run's task files are parsed by ingest, by every replayed profile and by the explainer: the
// same few texts, a fifth of `gate`'s time. Results are frozen, so a caller cannot change what
// the next one gets: the cache changes no output, only how often the same text is parsed.
const CACHE_SIZE = 256
const parsed = new Map<string, YamlParse>()

function deepFreeze<T>(value: T): T {
  // `!!binary` gives a Uint8Array, which Object.freeze refuses (a TypeError: exit 3); it stays as it is
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

/**
 * Deepest nesting read (flow `[`/`{` and block levels together). A GuardKit file is a few levels deep;
 * past a few hundred, the YAML library's recursive composer runs out of stack and says only "Maximum
 * call stack size exceeded" (PyYAML a RecursionError): such a file is refused with its line instead.
 */
export const MAX_YAML_DEPTH = 200

function parseUncached(text: string): YamlParse {
  const deep = nestingTooDeep(text, MAX_YAML_DEPTH)
  if (deep !== null) return {ok: false, message: `nesting deeper than ${MAX_YAML_DEPTH} levels`, line: deep.line, column: deep.column}
  const doc = parseDocument(text, {version: '1.1', customTags: pyScalars, uniqueKeys: false, prettyErrors: true, logLevel: 'silent'})
  const error = doc.errors[0]
  if (error) {
    const pos = error.linePos?.[0]
    return {ok: false, message: firstLine(error.message), line: pos?.line ?? null, column: pos?.col ?? null}
  }
  try {
    return {ok: true, value: doc.toJS({maxAliasCount: 1000})}
  } catch (e) {
    return {ok: false, message: firstLine((e as Error).message), line: null, column: null}
  }
}

const PY_BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/
const PY_INT = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/
const PY_FLOAT = /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/

function sexagesimal(body: string): number {
  return body.split(':').reduce((acc, part) => acc * 60 + Number(part), 0)
}

function signed(text: string): {sign: number; body: string} {
  const sign = text.startsWith('-') ? -1 : 1
  return {sign, body: text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text}
}

const bool: ScalarTag = {
  identify: (v) => typeof v === 'boolean', default: true, tag: 'tag:yaml.org,2002:bool', test: PY_BOOL,
  resolve: (s) => ['yes', 'true', 'on'].includes(s.toLowerCase()),
}

const int: ScalarTag = {
  identify: (v) => Number.isInteger(v), default: true, tag: 'tag:yaml.org,2002:int', test: PY_INT,
  resolve: (s) => {
    const {sign, body} = signed(s.replace(/_/g, ''))
    if (body === '0') return 0
    if (body.startsWith('0b')) return sign * parseInt(body.slice(2), 2)
    if (body.startsWith('0x')) return sign * parseInt(body.slice(2), 16)
    if (body.includes(':')) return sign * sexagesimal(body)
    if (body.startsWith('0')) return sign * parseInt(body, 8)
    return sign * parseInt(body, 10)
  },
}

const float: ScalarTag = {
  identify: (v) => typeof v === 'number', default: true, tag: 'tag:yaml.org,2002:float', test: PY_FLOAT,
  resolve: (s) => {
    const {sign, body} = signed(s.replace(/_/g, '').toLowerCase())
    if (body === '.inf') return sign * Infinity
    if (body === '.nan') return NaN
    if (body.includes(':')) return sign * sexagesimal(body)
    return sign * Number(body)
  },
}

const REPLACED = new Set(['tag:yaml.org,2002:bool', 'tag:yaml.org,2002:int', 'tag:yaml.org,2002:float', 'tag:yaml.org,2002:timestamp'])

function pyScalars(tags: Tags): Tags {
  return [bool, int, float, ...tags.filter((t) => typeof t === 'string' || !REPLACED.has(t.tag))]
}

function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? message
  return line.replace(/ at line \d+, column \d+:?$/, '')
}

/**
 * Where the nesting of a YAML text first goes past `max` levels, or null: flow collections counted by
 * their brackets (outside quotes and comments), block collections by the indentation of their entries
 * (a block scalar's lines are text, not entries), `- - x` as one level per dash. An estimate that never
 * counts fewer levels than the composer builds for the same text.
 */
/** `nesting deeper than N levels at line L` for a YAML text nested past MAX_YAML_DEPTH, else null (for YAML read without parsePyYaml). */
export function yamlNestingError(text: string): string | null {
  const deep = nestingTooDeep(text, MAX_YAML_DEPTH)
  return deep === null ? null : `nesting deeper than ${MAX_YAML_DEPTH} levels at line ${deep.line}`
}

function nestingTooDeep(text: string, max: number): {line: number; column: number} | null {
  if (text.length < max) return null
  const indents: number[] = []
  let flow = 0
  let scalarIndent = -1
  let line = 0
  for (const raw of text.split('\n')) {
    line++
    const indent = raw.length - raw.trimStart().length
    const body = raw.trimStart()
    if (scalarIndent >= 0) {
      if (body === '' || indent > scalarIndent) continue
      scalarIndent = -1
    }
    if (body === '' || body.startsWith('#')) continue
    if (flow === 0) {
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop()
      indents.push(indent)
      let dashes = 0
      for (let i = 0; body.startsWith('- ', i); i += 2) dashes++
      if (indents.length + dashes > max) return {line, column: indent + 1}
      if (/[:-]\s*[|>][-+0-9]*\s*(?:#.*)?$/.test(body)) scalarIndent = indent
    }
    let quote: string | null = null
    for (let i = 0; i < raw.length; i++) {
      const c = raw[i]!
      if (quote !== null) {
        if (c === '\\' && quote === '"') i++
        else if (c === quote) quote = null
        continue
      }
      if (c === '#' && (i === 0 || raw[i - 1] === ' ' || raw[i - 1] === '\t')) break
      if (c === '"' || c === "'") quote = c
      else if (c === '[' || c === '{') {
        flow++
        if (flow + indents.length > max) return {line, column: i + 1}
      } else if ((c === ']' || c === '}') && flow > 0) flow--
    }
  }
  return null
}
