import {createHash} from 'node:crypto'
import type {Content, Damage, Piece} from './model/types.js'

/** Model → bytes, deterministic: the same case always writes the same files. */

const encoder = new TextEncoder()

/** `Array.isArray` does not narrow a readonly array out of a union. */
export function isPieces(p: Piece): p is readonly Piece[] {
  return Array.isArray(p)
}

/** Bytes of a piece; `repeat` is built by doubling, so a megabyte line costs a few copies. */
export function renderPiece(piece: Piece): Uint8Array {
  if (typeof piece === 'string') return encoder.encode(piece)
  if (isPieces(piece)) return concat(piece.map(renderPiece))
  if ('hex' in piece) return Buffer.from(piece.hex, 'hex')
  const unit = renderPiece(piece.repeat)
  const count = Math.max(0, Math.floor(piece.count))
  const out = new Uint8Array(unit.length * count)
  if (out.length === 0) return out
  out.set(unit, 0)
  let filled = unit.length
  while (filled < out.length) {
    const n = Math.min(filled, out.length - filled)
    out.copyWithin(filled, 0, n)
    filled += n
  }
  return out
}

export interface RenderContext {
  /** Bytes of a file below fixtures/runs/ (empty when it is missing). */
  readonly fixture: (file: string) => Uint8Array
  /** Final bytes of another entry of the case (null when it has none), for manifests. */
  readonly entryBytes: (path: string) => Uint8Array | null
}

export function renderContent(content: Content, ctx: RenderContext): Uint8Array {
  switch (content.kind) {
    case 'fixture':
      return ctx.fixture(content.file)
    case 'json':
      return encoder.encode(JSON.stringify(content.value, null, 2) ?? 'null')
    case 'pieces':
      return renderPiece(content.pieces)
    case 'interleave':
      return interleave(ctx.fixture(content.a), ctx.fixture(content.b), Math.max(1, content.block))
    case 'manifest':
      return encoder.encode(JSON.stringify(manifestJson(content, ctx), null, 2))
  }
}

function manifestJson(m: Extract<Content, {kind: 'manifest'}>, ctx: RenderContext): unknown {
  const sha = (path: string, spec: string | null): string | undefined => {
    if (spec === null) return undefined
    if (spec === 'auto') {
      const bytes = ctx.entryBytes(path)
      return createHash('sha256').update(bytes ?? new Uint8Array(0)).digest('hex')
    }
    if (spec === 'stale') return createHash('sha256').update(`stale:${path}`).digest('hex')
    return spec
  }
  return {
    format: 'guardkit-replay/recording',
    formatVersion: 1,
    tool: {name: 'guardkit-replay', version: '0.1.0'},
    createdBy: 'record',
    redacted: true,
    files: m.files.map((f) => ({path: f.path, sha256: sha(f.path, f.sha), bytes: ctx.entryBytes(f.path)?.length ?? 0})),
    versions: m.versions.map((v) => ({path: v.path, version: v.version, file: v.file, seenAt: null, ...(v.sha === null ? {} : {sha256: sha(v.file, v.sha)})})),
    gaps: m.gaps,
    ...m.extra,
  }
}

function interleave(a: Uint8Array, b: Uint8Array, block: number): Uint8Array {
  const la = splitLines(a)
  const lb = splitLines(b)
  const out: Uint8Array[] = []
  for (let i = 0; i < Math.max(la.length, lb.length); i += block) out.push(...la.slice(i, i + block), ...lb.slice(i, i + block))
  return concat(out)
}

/** Lines with their `\n`. */
function splitLines(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = []
  let start = 0
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      out.push(bytes.subarray(start, i + 1))
      start = i + 1
    }
  }
  if (start < bytes.length) out.push(bytes.subarray(start))
  return out
}

export function applyDamage(bytes: Uint8Array, damage: readonly Damage[]): Uint8Array {
  let b = bytes
  for (const d of damage) b = damageOnce(b, d)
  return b
}

function damageOnce(b: Uint8Array, d: Damage): Uint8Array {
  const at = (n: number) => Math.abs(Math.floor(n)) % (b.length + 1)
  switch (d.op) {
    case 'truncate':
      return b.subarray(0, at(d.at))
    case 'insert': {
      const i = at(d.at)
      return concat([b.subarray(0, i), renderPiece(d.piece), b.subarray(i)])
    }
    case 'lines': {
      const lines = splitLines(b)
      if (lines.length === 0) return b
      const from = Math.abs(Math.floor(d.from)) % lines.length
      return concat(lines.slice(from, from + Math.max(1, d.count)))
    }
    case 'crlf':
      return replaceNewlines(b, [0x0d, 0x0a])
    case 'cr':
      return replaceNewlines(b, [0x0d])
    case 'bom':
      return concat([new Uint8Array([0xef, 0xbb, 0xbf]), b])
    case 'utf16le': {
      const text = new TextDecoder().decode(b)
      return concat([new Uint8Array([0xff, 0xfe]), new Uint8Array(Buffer.from(text, 'utf16le'))])
    }
    case 'utf16le-nobom':
      return new Uint8Array(Buffer.from(new TextDecoder().decode(b), 'utf16le'))
    case 'utf16be':
      return concat([new Uint8Array([0xfe, 0xff]), new Uint8Array(Buffer.from(new TextDecoder().decode(b), 'utf16le').swap16())])
    case 'duplicate': {
      const from = at(d.from)
      const piece = b.subarray(from, Math.min(b.length, from + Math.max(0, d.length)))
      const i = at(d.at)
      return concat([b.subarray(0, i), piece, b.subarray(i)])
    }
  }
}

function replaceNewlines(b: Uint8Array, by: readonly number[]): Uint8Array {
  const out: number[] = []
  for (const x of b) {
    if (x === 0x0a) out.push(...by)
    else out.push(x)
  }
  return new Uint8Array(out)
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
