import type {Content, Damage, Entry, Piece, RunCase} from './model/types.js'
import {isPieces} from './render-content.js'

/**
 * A case as a person reads it: one line per entry, long texts cut (the exact case is the JSON written
 * next to the kept folder). `JSON.stringify` shows hidden characters (`\u001b`, `\r`, lone surrogates).
 */
export function describeCase(c: RunCase): string {
  const lines = [
    `RUN folder name: ${JSON.stringify(c.runName)}`,
    `RUN given as: ${c.arg.as === 'file' ? `the file entry #${c.arg.pick} (mod the number of file entries)` : c.arg.as === 'relative' ? `a relative path${c.arg.dotSlash ? ' (./NAME)' : ''}` : `an ${c.arg.as === 'symlink' ? 'absolute path through a symbolic link' : 'absolute path'}`}`,
    `extra command: ${c.extra === null ? 'none' : JSON.stringify(c.extra)}`,
    `through the built CLI too: ${c.cli ? 'yes' : 'no'}`,
    `entries (${c.entries.length}; a later one replaces an earlier one at the same path):`,
    ...c.entries.map((e) => `  ${describeEntry(e)}`),
  ]
  return lines.join('\n')
}

function describeEntry(e: Entry): string {
  const path = JSON.stringify(e.path)
  switch (e.type) {
    case 'file':
      return `file ${path}${e.mode === undefined ? '' : ` mode ${e.mode.toString(8)}`}: ${describeContent(e.content)}${e.damage.length === 0 ? '' : `, damaged: ${e.damage.map(describeDamage).join(', ')}`}`
    case 'dir':
      return `folder ${path}${e.mode === undefined ? '' : ` mode ${e.mode.toString(8)}`}`
    case 'symlink':
      return `link ${path} -> ${JSON.stringify(e.target)}`
    case 'fifo':
      return `fifo ${path}`
    case 'many':
      return `folder ${path} with ${e.count} empty files ${JSON.stringify(e.prefix)}0…`
  }
}

function describeContent(c: Content): string {
  switch (c.kind) {
    case 'fixture':
      return `fixtures/runs/${c.file}`
    case 'json':
      return `JSON ${cut(JSON.stringify(c.value) ?? 'undefined', 160)}`
    case 'pieces':
      return describePiece(c.pieces)
    case 'interleave':
      return `fixtures/runs/${c.a} and ${c.b} interleaved every ${c.block} lines`
    case 'manifest':
      return `recording manifest ${cut(JSON.stringify({files: c.files, versions: c.versions, gaps: c.gaps, ...c.extra}), 240)}`
  }
}

function describePiece(p: Piece): string {
  if (typeof p === 'string') return cut(JSON.stringify(p), 160)
  if (isPieces(p)) return p.map(describePiece).join(' + ')
  if ('hex' in p) return `bytes ${cut(p.hex, 64)}`
  return `(${describePiece(p.repeat)}) × ${p.count}`
}

function describeDamage(d: Damage): string {
  switch (d.op) {
    case 'truncate':
      return `cut at byte ${d.at} (mod size+1)`
    case 'insert':
      return `${describePiece(d.piece)} inserted at ${d.at} (mod size+1)`
    case 'lines':
      return `only ${d.count} lines from line ${d.from} (mod lines)`
    case 'duplicate':
      return `${d.length} bytes from ${d.from} written again at ${d.at}`
    default:
      return d.op
  }
}

function cut(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n)}…(${s.length} chars)`
}
