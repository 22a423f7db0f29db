import {parseDocument, type ScalarTag, type Tags} from 'yaml'
import {PyException, isPyDict} from '../python/builtins.js'
import {pyRegex} from '../python/regex.js'
import {pyStrip} from '../python/strings.js'

/**
 * python-frontmatter's `parse(text)` with the YAML handler, as TaskLoader uses it: the text is
 * stripped; it must start with a `---` line (`^-{3,}\s*$`, multiline); it is split at the first two
 * such lines; the middle is loaded with PyYAML's SafeLoader (YAML 1.1) and kept only when it is a
 * mapping; the rest, stripped, is the content. No front matter, or only one boundary: metadata `{}`
 * and the whole stripped text as content.
 */
export interface Frontmatter {
  readonly metadata: Record<string, unknown>
  readonly content: string
}

// Python's multiline `^`/`$` see only `\n`; `\s*` may run across blank lines.
const BOUNDARY = pyRegex('(?:^|(?<=\\n))-{3,}\\s*(?=\\n|$)', 'g')

/** Parses a task file's text. Raises (as PyException `YAMLError`) when the front matter is not valid YAML. */
export function parseFrontmatter(raw: string): Frontmatter {
  const text = pyStrip(raw)
  const bounds = [...text.matchAll(BOUNDARY)].slice(0, 2)
  if (bounds.length < 2 || bounds[0]!.index !== 0) return {metadata: {}, content: text}
  const first = bounds[0]!
  const second = bounds[1]!
  const fm = text.slice(first.index + first[0].length, second.index)
  const content = text.slice(second.index + second[0].length)
  const loaded = loadYaml(fm)
  return {metadata: isPyDict(loaded) ? {...loaded} : {}, content: pyStrip(content)}
}

/** `yaml.load(text, Loader=SafeLoader)`. */
export function loadYaml(text: string): unknown {
  const doc = parseDocument(text, {version: '1.1', uniqueKeys: false, customTags: pyYamlScalars})
  const error = doc.errors[0]
  if (error) throw new PyException('YAMLError', error.message.split('\n')[0] ?? 'invalid YAML')
  return doc.toJS({maxAliasCount: -1}) as unknown
}

// PyYAML's implicit resolvers differ from the YAML 1.1 tags of the `yaml` package: no `y`/`n`
// booleans, floats need a dot (`1e3` is a string) and exponents a sign, ints have no leading zero
// unless octal.
const PY_BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/
const PY_INT = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/
const PY_FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/

function signed(text: string): {sign: number; body: string} {
  const sign = text.startsWith('-') ? -1 : 1
  return {sign, body: text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text}
}

function sexagesimal(body: string): number {
  return body.split(':').reduce((acc, part) => acc * 60 + Number(part), 0)
}

const pyBool: ScalarTag = {
  identify: (v) => typeof v === 'boolean',
  default: true,
  tag: 'tag:yaml.org,2002:bool',
  test: PY_BOOL,
  resolve: (s) => ['yes', 'true', 'on'].includes(s.toLowerCase()),
}

const pyIntTag: ScalarTag = {
  identify: (v) => Number.isInteger(v),
  default: true,
  tag: 'tag:yaml.org,2002:int',
  test: PY_INT,
  resolve: (s) => {
    const {sign, body} = signed(s.replace(/_/g, ''))
    if (body === '0') return 0
    if (body.startsWith('0b')) return sign * parseInt(body.slice(2), 2)
    if (body.startsWith('0x')) return sign * parseInt(body.slice(2), 16)
    if (body.startsWith('0')) return sign * parseInt(body, 8)
    if (body.includes(':')) return sign * sexagesimal(body)
    return sign * parseInt(body, 10)
  },
}

const pyFloatTag: ScalarTag = {
  identify: (v) => typeof v === 'number',
  default: true,
  tag: 'tag:yaml.org,2002:float',
  test: PY_FLOAT,
  resolve: (s) => {
    const {sign, body} = signed(s.replace(/_/g, '').toLowerCase())
    if (body === '.inf') return sign * Infinity
    if (body === '.nan') return NaN
    if (body.includes(':')) return sign * sexagesimal(body)
    return sign * Number(body)
  },
}

function pyYamlScalars(tags: Tags): Tags {
  const replaced = new Set(['tag:yaml.org,2002:bool', 'tag:yaml.org,2002:int', 'tag:yaml.org,2002:float'])
  const kept = tags.filter((t) => typeof t === 'string' || !replaced.has(t.tag))
  return [pyBool, pyIntTag, pyFloatTag, ...kept]
}
