import {compareCodePoints} from '../../shared/code-point-order.js'

/**
 * `pathlib.PurePosixPath` semantics (docs/guardkit-logic.md §3.11): lexical only, never the filesystem.
 * Trailing and doubled slashes collapse, `.` components drop, `..` stays, exactly two leading
 * slashes are kept (POSIX leaves `//` implementation-defined), three or more collapse to one.
 */
export interface PurePath {
  readonly root: '' | '/' | '//'
  readonly parts: readonly string[]
}

export function parsePath(s: string): PurePath {
  let root: PurePath['root'] = ''
  if (s.startsWith('/')) root = s.startsWith('//') && !s.startsWith('///') ? '//' : '/'
  const parts = s.split('/').filter((p) => p !== '' && p !== '.')
  return {root, parts}
}

export function formatPath(p: PurePath): string {
  const body = p.parts.join('/')
  if (!p.root) return body || '.'
  return p.root + body
}

/** `str(Path(s))` */
export function normalizePath(s: string): string {
  return formatPath(parsePath(s))
}

export function isAbsolutePath(s: string): boolean {
  return s.startsWith('/')
}

/** `str(Path(a) / b)`: an absolute right-hand side wins. */
export function joinPath(a: string, ...rest: string[]): string {
  let cur = parsePath(a)
  for (const b of rest) {
    const pb = parsePath(b)
    cur = pb.root ? pb : {root: cur.root, parts: [...cur.parts, ...pb.parts]}
  }
  return formatPath(cur)
}

/** `str(Path(p).relative_to(base))`, or null where Python raises ValueError. */
export function relativeTo(p: string, base: string): string | null {
  const pp = parsePath(p)
  const pb = parsePath(base)
  if (pp.root !== pb.root) return null
  if (pb.parts.length > pp.parts.length) return null
  for (let i = 0; i < pb.parts.length; i++) if (pp.parts[i] !== pb.parts[i]) return null
  return formatPath({root: '', parts: pp.parts.slice(pb.parts.length)})
}

/** `Path(s).name` */
export function pathName(s: string): string {
  const {parts} = parsePath(s)
  return parts[parts.length - 1] ?? ''
}

/** `Path(s).suffix` */
export function pathSuffix(s: string): string {
  const name = pathName(s)
  const i = name.lastIndexOf('.')
  if (i <= 0 || i === name.length - 1) return ''
  return name.slice(i)
}

/** `Path(s).stem` */
export function pathStem(s: string): string {
  const name = pathName(s)
  const suffix = pathSuffix(name)
  return suffix ? name.slice(0, -suffix.length) : name
}

/** `str(Path(s).parent)` */
export function pathParent(s: string): string {
  const p = parsePath(s)
  if (p.parts.length === 0) return formatPath(p)
  return formatPath({root: p.root, parts: p.parts.slice(0, -1)})
}

/**
 * Ordering of `Path` objects: component by component (so `tests/a/x` sorts before `tests/a-b/x`,
 * unlike plain strings). The root takes part as a leading component.
 */
export function comparePaths(a: string, b: string): number {
  const ka = pathSortKey(a)
  const kb = pathSortKey(b)
  const n = Math.min(ka.length, kb.length)
  for (let i = 0; i < n; i++) {
    const c = compareCodePoints(ka[i]!, kb[i]!)
    if (c !== 0) return c
  }
  return ka.length - kb.length
}

function pathSortKey(s: string): string[] {
  const p = parsePath(s)
  return p.root ? [p.root, ...p.parts] : [...p.parts]
}
