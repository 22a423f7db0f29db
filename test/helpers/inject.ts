import {Redactor} from '../../src/shared/redact.js'
import type {Sensitive} from './arbitraries/secrets.js'
import type {MemEntry} from './memory-port.js'

/**
 * Puts sensitive text where GuardKit's records do not turn it into a feedback: a log record of its own
 * before an existing record, a key of its own at the top of a JSON artifact, a comment in a task file's
 * frontmatter. `at` picks the places.
 */
export function injectQuietly(tree: ReadonlyMap<string, MemEntry>, items: readonly {s: Sensitive; at: number}[]): Map<string, MemEntry> {
  const out = new Map(tree)
  const files = [...out.entries()].filter(([p, e]) => e.kind === 'file' && /\.(log|json|md)$/.test(p) && !p.endsWith('guardkit-replay.json') && !p.includes('/versions/') && !p.endsWith('README.md'))
  for (const {s, at} of items) {
    if (files.length === 0) break
    const [path] = files[at % files.length]!
    const entry = out.get(path)!
    if (entry.kind !== 'file') continue
    const text = Buffer.from(entry.bytes).toString('latin1')
    let next: string | null = null
    if (path.endsWith('.log')) {
      const lines = text.split('\n')
      const records = lines.flatMap((l, i) => (/^(?:INFO|DEBUG|WARNING|ERROR):/.test(l) ? [i] : []))
      if (records.length > 0) {
        const i = records[Math.floor(at / files.length) % records.length]!
        lines.splice(i, 0, `INFO:tests.injected:${s.text}`)
        next = lines.join('\n')
      }
    } else if (path.endsWith('.json')) {
      const brace = text.indexOf('{')
      if (brace >= 0) next = `${text.slice(0, brace + 1)}"_injected": ${latin1(JSON.stringify(s.text))}, ${text.slice(brace + 1)}`
    } else if (text.startsWith('---\n')) {
      next = `---\n# ${s.text}\n${text.slice(4)}`
    }
    if (next !== null) out.set(path, {kind: 'file', bytes: new Uint8Array(Buffer.from(next, 'latin1'))})
  }
  return out
}

export function latin1(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1')
}

/** Every file redacted with one Redactor, as `record` does (bytes read as latin1). */
export function redactTree(tree: ReadonlyMap<string, MemEntry>): Map<string, MemEntry> {
  const r = new Redactor({users: [], hosts: [], homes: []})
  const files = [...tree.entries()].filter(([, e]) => e.kind === 'file') as [string, {kind: 'file'; bytes: Uint8Array}][]
  for (const [, e] of files) r.learn(Buffer.from(e.bytes).toString('latin1'))
  const out = new Map(tree)
  for (const [p, e] of files) out.set(p, {kind: 'file', bytes: new Uint8Array(Buffer.from(r.text(Buffer.from(e.bytes).toString('latin1')), 'latin1'))})
  return out
}


/**
 * Puts sensitive text anywhere: at the end of a log line, at the start of a JSON string value, at the
 * end of a task-file line. It may land in a feedback, a criterion or a file path, i.e. in what replay
 * hashes and matches.
 */
export function injectAnywhere(tree: ReadonlyMap<string, MemEntry>, items: readonly {s: Sensitive; at: number}[]): Map<string, MemEntry> {
  const out = new Map(tree)
  const files = [...out.entries()].filter(([p, e]) => e.kind === 'file' && /\.(log|json|md)$/.test(p) && !p.endsWith('guardkit-replay.json') && !p.endsWith('README.md')).map(([p]) => p)
  for (const {s, at} of items) {
    if (files.length === 0) break
    const path = files[at % files.length]!
    const entry = out.get(path)!
    if (entry.kind !== 'file') continue
    const text = Buffer.from(entry.bytes).toString('latin1')
    const pick = Math.floor(at / files.length)
    let next: string | null = null
    if (path.endsWith('.json')) {
      const values = [...text.matchAll(/": "/g)].map((m) => m.index + 4)
      if (values.length > 0) {
        const i = values[pick % values.length]!
        next = `${text.slice(0, i)}${latin1(JSON.stringify(s.text).slice(1, -1))} ${text.slice(i)}`
      }
    } else {
      const lines = text.split('\n')
      const i = pick % lines.length
      lines[i] = `${lines[i]} ${latin1(s.text)}`
      next = lines.join('\n')
    }
    if (next !== null) out.set(path, {kind: 'file', bytes: new Uint8Array(Buffer.from(next, 'latin1'))})
  }
  return out
}
