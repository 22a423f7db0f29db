import type {ParsedEvent} from './events.js'
import {joinWrapped} from './hard-wrap.js'

/**
 * The multi-line item being read: a logging record (its message may continue on lines without a
 * prefix: feedback bullets, query dumps, tracebacks) or a console item (a feedback line and its
 * bullets, a wrapped shell command, a traceback). One object per file, reused.
 */
export interface OpenItem {
  kind: 'none' | 'record' | 'console'
  line: number
  level: string
  logger: string
  first: string
  more: string[] | null
  size: number
  dropped: number
  event: ParsedEvent | null
  block: 'traceback' | 'prompt' | null
  /** Blank lines seen since the last line of the item, not yet known to belong to it. */
  blanks: number
  /** A record's wrap indentation in a transcript (hard-wrap.ts), 0 when its lines are not wrapped. */
  wrapIndent: number
  /** The length of a record's first line when the record starts it (a plain capture's possible wrap width), else 0. */
  width: number
}

/** An item keeps at most this much: the rest is counted (`dropped`) and reported. */
const MAX_ITEM_LINES = 200
const MAX_ITEM_CHARS = 64 * 1024

export function newOpenItem(): OpenItem {
  return {kind: 'none', line: 0, level: '', logger: '', first: '', more: null, size: 0, dropped: 0, event: null, block: null, blanks: 0, wrapIndent: 0, width: 0}
}

export function openItem(item: OpenItem, kind: 'record' | 'console', line: number, first: string): void {
  item.kind = kind
  item.line = line
  item.first = first
  item.more = null
  item.size = first.length
  item.dropped = 0
  item.event = null
  item.block = null
  item.blanks = 0
  item.wrapIndent = 0
  item.width = 0
}

/** A continuation line, with the blank lines held before it. */
export function append(item: OpenItem, text: string): void {
  for (; item.blanks > 0; item.blanks--) appendOne(item, '')
  appendOne(item, text)
}

function appendOne(item: OpenItem, text: string): void {
  const more = (item.more ??= [])
  if (more.length >= MAX_ITEM_LINES || item.size + text.length > MAX_ITEM_CHARS) {
    item.dropped++
    return
  }
  more.push(text)
  item.size += text.length + 1
}

/** A wrapped line of the record (hard-wrap.ts): joined to the line it was cut from. */
export function appendWrapped(item: OpenItem, text: string): void {
  const more = item.more
  if (more === null || more.length === 0) item.first = joinWrapped(item.first, text)
  else more[more.length - 1] = joinWrapped(more[more.length - 1]!, text)
  item.size += text.length + 1
}

/** The record's whole message. */
export function messageOf(item: OpenItem): string {
  return item.more === null ? item.first : [item.first, ...item.more].join('\n')
}

/** A console item with its continuation lines folded in. */
export function finishConsole(item: OpenItem): ParsedEvent | null {
  const e = item.event
  if (e === null) return null
  const more = item.more ?? []
  switch (e.kind) {
    case 'c-coach':
    case 'c-player':
      return more.length === 0 ? e : {...e, text: [e.text, ...more].join('\n')}
    case 'c-prompt': {
      let command = e.command
      for (const next of more) {
        if (!/\\\s*$/.test(command)) break
        command = `${command.replace(/\s*\\\s*$/, '')} ${next.replace(/^\s+/, '')}`
      }
      return {...e, command}
    }
    case 'c-traceback':
      return {...e, lines: [item.first, ...more]}
    case 'c-transcript': {
      // a tool call wider than the pane goes on over the next lines (the output file, a right-aligned
      // timeout), up to the `⎿` that starts its output
      if (e.tool === null) return e
      const parts = [e.input]
      for (const l of more) {
        if (/^\s*⎿/.test(l)) break
        const t = l.replace(/^\s+|\s+$/g, '')
        if (t !== '') parts.push(t)
      }
      return parts.length === 1 ? e : {...e, input: parts.join(' ')}
    }
    default:
      return e
  }
}
