import type {Sensitive} from './arbitraries/secrets.js'
import {latin1} from './inject.js'
import type {MemEntry} from './memory-port.js'

/**
 * Plants secrets where redaction has to understand the file to find them, and where GuardKit's
 * records do not turn them into a feedback or a criterion (so verdicts cannot change): in a log, as a
 * record of its own (a key block's lines as the record's continuation); in a JSON artifact, as a member
 * of its own whose string starts with an escape (`\n`, `\t`, `\u00e9`, `\"`, `\\`) right before the
 * secret; in YAML (feature file, config, a task file's frontmatter), as a block scalar of its own.
 */
export const JSON_ESCAPES = ['\\n', '\\t', '\\u00e9', '\\"', '\\\\', '\\r\\n', ''] as const

export function plant(tree: ReadonlyMap<string, MemEntry>, items: readonly {s: Sensitive; at: number}[]): Map<string, MemEntry> {
  const out = new Map(tree)
  const files = [...out.entries()]
    .filter(([p, e]) => e.kind === 'file' && /\.(log|json|ya?ml|md)$/.test(p) && !p.endsWith('guardkit-replay.json') && !p.includes('/versions/') && !p.endsWith('README.md') && !p.endsWith('expected.yaml'))
    .map(([p]) => p)
  items.forEach(({s, at}, n) => {
    if (files.length === 0) return
    const path = files[at % files.length]!
    const entry = out.get(path)!
    if (entry.kind !== 'file') return
    const text = Buffer.from(entry.bytes).toString('latin1')
    const lines = latin1(s.text).split('\n')
    const pick = Math.floor(at / files.length)
    let next: string | null = null
    if (path.endsWith('.log')) {
      const all = text.split('\n')
      const records = all.flatMap((l, i) => (/^(?:INFO|DEBUG|WARNING|ERROR):/.test(l) ? [i] : []))
      if (records.length > 0) {
        all.splice(records[pick % records.length]!, 0, `INFO:tests.injected:${lines[0]!}`, ...lines.slice(1).map((l) => `  ${l}`))
        next = all.join('\n')
      }
    } else if (path.endsWith('.json')) {
      const brace = text.indexOf('{')
      const escape = JSON_ESCAPES[pick % JSON_ESCAPES.length]!
      if (brace >= 0) next = `${text.slice(0, brace + 1)}"_planted_${n}": "${escape}${JSON.stringify(lines.join('\n')).slice(1, -1)}", ${text.slice(brace + 1)}`
    } else {
      const block = `planted_${n}: |\n${lines.map((l) => `  ${l}`).join('\n')}\n`
      if (path.endsWith('.md')) {
        if (text.startsWith('---\n')) next = `---\n${block}${text.slice(4)}`
      } else {
        next = `${block}${text}`
      }
    }
    if (next !== null) out.set(path, {kind: 'file', bytes: new Uint8Array(Buffer.from(next, 'latin1'))})
  })
  return out
}
