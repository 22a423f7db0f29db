import fc from 'fast-check'
import {anyJsString, hardText} from './text.js'

/**
 * JSON for the artifact ingest (docs/ingest.md): arbitrary values, GuardKit-shaped dicts with values
 * of the wrong type, Python's `json.dump` dialect (`NaN`, `Infinity`, duplicate keys), and texts that are
 * not JSON at all (truncated, BOM-prefixed, binary).
 */

const key = fc.oneof(
  fc.constantFrom('files_created', 'files_modified', 'completion_promises', 'criteria_verification', 'decision', 'issues', 'turn', 'task_id', 'requirements_met', 'checkpoints', 'commit_hash', 'validation_results', '__proto__', 'constructor', ''),
  fc.string({maxLength: 8}),
  hardText({maxLength: 6}),
)

/** Any JSON value, with GuardKit keys, hard strings and (sometimes) very deep or wide shapes. */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{value: unknown}>((tie) => ({
  value: fc.oneof(
    {depthSize: 'small', withCrossShrink: true},
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({noNaN: true, noDefaultInfinity: true}),
    // long strings too: messages quote at most a few dozen characters of a value
    fc.oneof(fc.string({maxLength: 20}), hardText({maxLength: 12}), hardText({minLength: 30, maxLength: 50}), fc.constantFrom('verified', 'rejected', 'complete', 'partial', 'approve', 'feedback', '', 'TASK-X', 'AC-001')),
    fc.array(tie('value'), {maxLength: 5}),
    fc.dictionary(key, tie('value'), {maxKeys: 6}),
  ),
})).value

/** A GuardKit-shaped artifact dict with some values replaced by arbitrary ones (wrong types, nulls, …). */
export function mutatedArtifact(base: unknown): fc.Arbitrary<unknown> {
  const paths = collectPaths(base)
  return fc
    .array(fc.tuple(fc.constantFrom(...paths), fc.oneof({weight: 3, arbitrary: jsonValue}, {weight: 1, arbitrary: fc.constant(DELETE)})), {minLength: 1, maxLength: 4})
    .map((edits) => {
      let out = structuredClone(base)
      for (const [path, value] of edits) out = setAt(out, path, value)
      return out
    })
}

/** Python's `json.dump` output dialect (and its damage) for a value. */
export function jsonTextOf(value: unknown): fc.Arbitrary<string> {
  const text = JSON.stringify(value, null, 2) ?? 'null'
  return fc.oneof(
    {weight: 4, arbitrary: fc.constant(text)},
    // Python writes NaN/Infinity bare; a cut file ends anywhere
    {weight: 1, arbitrary: fc.constantFrom(text.replace(/\d+(\.\d+)?/, 'NaN'), text.replace(/\d+(\.\d+)?/, '-Infinity'), '\ufeff' + text, text + '\n\n', `{"a": 1, "a": ${text}}`)},
    {weight: 2, arbitrary: fc.nat().map((at) => text.slice(0, at % (text.length + 1)))},
    {weight: 1, arbitrary: fc.tuple(fc.nat(), anyJsString).map(([at, junk]) => text.slice(0, at % (text.length + 1)) + junk + text.slice(at % (text.length + 1)))},
  )
}

/** Bytes of a file: UTF-8 of some text, or raw bytes (invalid UTF-8, NUL, a UTF-16 BOM, …). */
export function fileBytes(text: fc.Arbitrary<string>): fc.Arbitrary<Uint8Array> {
  return fc.oneof(
    {weight: 3, arbitrary: text.map((t) => new TextEncoder().encode(t))},
    {weight: 1, arbitrary: fc.uint8Array({maxLength: 300})},
    {weight: 1, arbitrary: fc.tuple(text, fc.uint8Array({minLength: 1, maxLength: 8}), fc.nat()).map(([t, junk, at]) => spliceBytes(new TextEncoder().encode(t), junk, at))},
    {weight: 1, arbitrary: fc.constantFrom(new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]), new Uint8Array(0))},
  )
}

function spliceBytes(bytes: Uint8Array, junk: Uint8Array, at: number): Uint8Array {
  const i = at % (bytes.length + 1)
  const out = new Uint8Array(bytes.length + junk.length)
  out.set(bytes.subarray(0, i), 0)
  out.set(junk, i)
  out.set(bytes.subarray(i), i + junk.length)
  return out
}

const DELETE = Symbol('delete')
type Path = readonly (string | number)[]

function collectPaths(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path)
  if (out.length > 200) return out
  if (Array.isArray(value)) value.forEach((v, i) => collectPaths(v, [...path, i], out))
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) collectPaths(v, [...path, k], out)
  return out
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value === DELETE ? {} : value
  // An earlier edit may have replaced a container on the way with a scalar: then this edit has no target.
  let node: unknown = root
  for (const step of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return root
    node = (node as Record<string | number, unknown>)[step]
  }
  if (node === null || typeof node !== 'object') return root
  const last = path[path.length - 1]!
  const container = node as Record<string | number, unknown>
  if (value === DELETE) {
    if (Array.isArray(container) && typeof last === 'number') container.splice(last, 1)
    else delete container[last]
  } else {
    container[last] = value
  }
  return root
}
