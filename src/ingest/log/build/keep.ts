/**
 * An independent copy of a string. V8 represents a substring (regex capture, slice) as a view of
 * its parent: every log line is decoded on its own (line-splitter.ts), so a kept substring keeps
 * only its line alive; values cut from lines that may be huge (a FalkorDB dump, an over-long
 * line) are copied so that a short note does not keep a megabyte line.
 */
export function keep(s: string): string
export function keep(s: string | null): string | null
export function keep(s: string | null): string | null {
  if (s === null || s.length < 13) return s
  return (' ' + s).slice(1)
}

export function keepAll(list: readonly string[]): string[] {
  return list.map((s) => keep(s))
}


const INTERNED = new Map<string, string>()
const MAX_INTERNED = 4096

/**
 * One shared instance of a short, often repeated value (tool input keys, table phases and
 * statuses): thousands of turns keep the same few words.
 */
export function intern(s: string): string {
  if (s.length > 40) return keep(s)
  const known = INTERNED.get(s)
  if (known !== undefined) return known
  const copy = keep(s)
  if (INTERNED.size < MAX_INTERNED) INTERNED.set(copy, copy)
  return copy
}
