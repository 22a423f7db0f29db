import {parsePythonJson} from '../ingest/index.js'
import {parsePyYaml} from '../logic/python/py-yaml.js'
import {learnJson, redactJson} from '../shared/redact-json.js'
import {Redactor, type RedactionIdentities} from '../shared/redact.js'
import {UsageError} from '../shared/errors.js'
import {neutralised} from '../shared/neutralise.js'
import type {PreparedFile} from './record-messages.js'

/**
 * Redaction of the files of a recording (docs/recording-format.md "Redaction"), with one Redactor
 * so that a name gets the same placeholder in every file. Files are read as latin1 (one char per
 * byte: the patterns are ASCII, bytes that are not UTF-8 stay as they were). A JSON file is redacted
 * as JSON — each string decoded, redacted, re-encoded where it changed (src/shared/redact-json.ts) —
 * and every other file as text, by patterns that never start on the letter of an escape.
 */
export function redactFiles(files: readonly PreparedFile[], identities: RedactionIdentities): PreparedFile[] {
  const redactor = new Redactor(identities)
  const texts = files.map((f) => Buffer.from(f.bytes).toString('latin1'))
  files.forEach((f, i) => (isJson(f) ? learnJson(redactor, texts[i]!) : redactor.learn(texts[i]!)))
  return files.map((f, i) => {
    const {text, hits} = isJson(f) ? redactJson(redactor, texts[i]!) : redactor.redact(texts[i]!)
    return {...f, bytes: new Uint8Array(Buffer.from(text, 'latin1')), hits}
  })
}

/**
 * Every redacted file that parsed before still parses, to the same shape (the same kinds of values,
 * the same lengths of lists, at the same places): else a usage error (exit 2) naming the file and the
 * JSON pointer (YAML: the line) where it breaks, and nothing is written. Redaction is built so that
 * this cannot happen; the check is what makes `record` say so if it ever does.
 */
export function checkRedactedFiles(plain: readonly PreparedFile[], redacted: readonly PreparedFile[]): void {
  for (let i = 0; i < plain.length; i++) {
    const before = plain[i]!
    const after = redacted[i]!
    if (after.hits.length === 0) continue
    const problem = isJson(before) ? jsonProblem(before, after) : yamlProblem(before, after)
    if (problem !== null) {
      throw new UsageError(
        neutralised`Not recorded: redacting ${before.path} would leave it broken (${problem}), so nothing was written.` + ' This is a bug in redaction; please report it with the file\'s shape (not its content).',
        'Record with --no-redact (the recording then keeps names and secrets: share it only where they may go), or remove them from RUN by hand and record again.',
      )
    }
  }
}

function isJson(f: PreparedFile): boolean {
  return (f.version?.path ?? f.path).endsWith('.json')
}

function jsonProblem(before: PreparedFile, after: PreparedFile): string | null {
  const a = parsePythonJson(Buffer.from(before.bytes).toString('utf8'))
  if (!a.ok) return null
  const b = parsePythonJson(Buffer.from(after.bytes).toString('utf8'))
  if (!b.ok) {
    const at = after.hits.map((h) => (h as {pointer?: string}).pointer).find((p) => p !== undefined)
    return `${at === undefined ? 'JSON' : `at ${at || '/'}`}: not valid JSON any more (${b.message})`
  }
  const where = shapeDifference(a.value, b.value, '')
  return where === null ? null : `at ${where || '/'}: the value changed kind`
}

/** YAML files, and the frontmatter of markdown task files. */
function yamlProblem(before: PreparedFile, after: PreparedFile): string | null {
  const path = before.version?.path ?? before.path
  const pick = path.endsWith('.md') ? frontmatter : /\.ya?ml$/.test(path) ? (t: string) => ({text: t, offset: 0}) : null
  if (pick === null) return null
  const a = pick(Buffer.from(before.bytes).toString('utf8'))
  const b = pick(Buffer.from(after.bytes).toString('utf8'))
  if (a === null || b === null) return a === null ? null : 'its frontmatter is not closed any more'
  const pa = parsePyYaml(a.text)
  if (!pa.ok) return null
  const pb = parsePyYaml(b.text)
  if (!pb.ok) return `line ${(pb.line ?? 0) + b.offset}: not valid YAML any more (${pb.message})`
  const where = shapeDifference(pa.value, pb.value, '')
  return where === null ? null : `at ${where || '/'}: the value changed kind`
}

function frontmatter(text: string): {text: string; offset: number} | null {
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)
  return m === null ? null : {text: m[1]!, offset: 1}
}

/** The first pointer where two parsed values differ in kind (or a list in length, an object in size); null when none does. */
function shapeDifference(a: unknown, b: unknown, at: string): string | null {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)
  if (kind(a) !== kind(b)) return at
  if (Array.isArray(a)) {
    const bb = b as unknown[]
    if (a.length !== bb.length) return at
    for (let i = 0; i < a.length; i++) {
      const d = shapeDifference(a[i], bb[i], `${at}/${i}`)
      if (d !== null) return d
    }
    return null
  }
  if (a !== null && typeof a === 'object') {
    // keys may be redacted too (a path used as a key): members are compared in order
    const ea = Object.entries(a)
    const eb = Object.entries(b as object)
    if (ea.length !== eb.length) return at
    for (let i = 0; i < ea.length; i++) {
      const d = shapeDifference(ea[i]![1], eb[i]![1], `${at}/${ea[i]![0].replace(/~/g, '~0').replace(/\//g, '~1')}`)
      if (d !== null) return d
    }
  }
  return null
}
