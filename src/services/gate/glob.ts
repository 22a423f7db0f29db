import {readdir} from 'node:fs/promises'
import {isAbsolute, join, resolve} from 'node:path'
import {compareCodePoints} from '../../shared/code-point-order.js'

/**
 * A small glob for PATH arguments that reach the gate unexpanded (quoted in a CI file, or on
 * Windows): `*` and `?` within one path segment, `[abc]`/`[a-z]`/`[!a]` classes, `**` for any number
 * of directories. Names starting with `.` match only a pattern segment that starts with `.`.
 * Node 20 has no fs.glob.
 */
export function isGlob(pattern: string): boolean {
  return /[*?[]/.test(pattern)
}

/** The directory a pattern is rooted at: its segments before the first one with a wildcard. */
export function globBase(pattern: string): string {
  const segments = pattern.split('/')
  const fixed: string[] = []
  for (const s of segments) {
    if (isGlob(s)) break
    fixed.push(s)
  }
  if (fixed.length === segments.length) fixed.pop()
  const base = fixed.join('/')
  return base === '' ? (isAbsolute(pattern) ? '/' : '.') : base
}

/** Paths matching the pattern (files and directories), sorted by code point; relative patterns stay relative. */
export async function expandGlob(pattern: string, cwd: string): Promise<string[]> {
  const base = globBase(pattern)
  // `*.log` lists `a.log`, not `./a.log`: the base is shown only when the pattern has it
  const implicit = base === '.' && !pattern.startsWith('./')
  const parts = (implicit ? pattern : pattern.slice(base.length)).split('/').filter((p) => p !== '')
  const out = new Set<string>()
  await walk(resolve(cwd, base), implicit ? '' : base, parts, out)
  return [...out].sort(compareCodePoints)
}

async function walk(abs: string, shown: string, parts: readonly string[], out: Set<string>): Promise<void> {
  if (parts.length === 0) {
    if (shown !== '') out.add(shown)
    return
  }
  const [head, ...tail] = parts
  if (head === '**') {
    await walk(abs, shown, tail, out)
    for (const e of await entries(abs)) {
      if (e.dir && !e.name.startsWith('.')) await walk(join(abs, e.name), joinShown(shown, e.name), parts, out)
    }
    return
  }
  const re = segmentRegex(head!)
  for (const e of await entries(abs)) {
    if (e.name.startsWith('.') && !head!.startsWith('.')) continue
    if (!re.test(e.name)) continue
    if (tail.length > 0 && !e.dir) continue
    await walk(join(abs, e.name), joinShown(shown, e.name), tail, out)
  }
}

async function entries(abs: string): Promise<{name: string; dir: boolean}[]> {
  try {
    return (await readdir(abs, {withFileTypes: true})).map((d) => ({name: d.name, dir: d.isDirectory()}))
  } catch {
    return []
  }
}

function joinShown(shown: string, name: string): string {
  return shown === '' ? name : shown.endsWith('/') ? `${shown}${name}` : `${shown}/${name}`
}

/** One segment's wildcards as an anchored regular expression. */
export function segmentRegex(segment: string): RegExp {
  let re = ''
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i]!
    if (ch === '*') re += '[^/]*'
    else if (ch === '?') re += '[^/]'
    else if (ch === '[') {
      const end = segment.indexOf(']', i + 2)
      if (end === -1) {
        re += '\\['
        continue
      }
      let body = segment.slice(i + 1, end)
      const negate = body.startsWith('!') || body.startsWith('^')
      if (negate) body = body.slice(1)
      re += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`
      i = end
    } else re += ch.replace(/[.+^${}()|\\]/g, '\\$&')
  }
  return new RegExp(`^${re}$`, 'u')
}
