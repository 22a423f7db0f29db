import {PyException, isPyDict} from '../python/builtins.js'
import {parsePyYaml} from '../python/py-yaml.js'
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

/** `yaml.load(text, Loader=SafeLoader)`: raises YAMLError (as PyException) on invalid YAML. */
export function loadYaml(text: string): unknown {
  const parsed = parsePyYaml(text)
  if (!parsed.ok) throw new PyException('YAMLError', parsed.message)
  return parsed.value
}
