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

function parseUncached(text: string): YamlParse {
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
