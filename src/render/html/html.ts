import {neutraliseBlock} from '../../shared/neutralise.js'

/**
 * HTML built with a tagged template that escapes every interpolated value unless it is already
 * `Html`: recorded strings (logs are hostile input) can never become markup by forgetting to
 * escape one. Attribute values must be written inside double quotes in the template.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

/** Values a template accepts: text (escaped), Html (as is), lists of either, and nothing. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[]

export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += fragment(values[i]) + strings[i + 1]!
  return new Html(out)
}

/** Markup that is known to be safe (constants of this module's callers, never record text). */
export function raw(markup: string): Html {
  return new Html(markup)
}

export function join(items: readonly HtmlValue[], separator: HtmlValue = ''): Html {
  const sep = fragment(separator)
  return new Html(items.map(fragment).filter((s) => s !== '').join(sep))
}

function fragment(value: HtmlValue): string {
  if (value === null || value === undefined || value === false || value === true) return ''
  if (value instanceof Html) return value.value
  if (typeof value === 'number') return escapeHtml(String(value))
  if (typeof value === 'string') return escapeHtml(value)
  return value.map(fragment).join('')
}

const ENTITIES: Readonly<Record<string, string>> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}

/**
 * Text safe in element content and in double- or single-quoted attribute values. ANSI escape
 * sequences of terminal captures (colours, line clears, titles) are removed and CR is dropped
 * (CRLF captures): a page shows what the terminal showed. What is left is neutralised as every
 * output is (src/shared/neutralise.ts: other control characters, bidirectional controls and lone
 * surrogates shown escaped, no line able to start a CI workflow command when the page is printed
 * to a CI log); noncharacters, which an HTML document may not carry, become U+FFFD.
 */
export function escapeHtml(text: string): string {
  return cleanText(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}

// CSI and OSC sequences of terminal captures: colour codes, line clears, titles
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g
const NONCHARACTER = /[\ufdd0-\ufdef\ufffe\uffff]/g

export function cleanText(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]|::|##/.test(text)) return text
  return neutraliseBlock(text.replace(ANSI, '').replace(/\r/g, '')).replace(NONCHARACTER, '\ufffd')
}

/**
 * An id for an anchor from record text (a task id): letters, digits, `.` and `-` kept, anything
 * else as `_hex_`, so different ids stay different and `#id` needs no URL escaping.
 */
export function anchorId(text: string): string {
  let out = ''
  for (const ch of text) {
    out += /^[A-Za-z0-9.-]$/.test(ch) ? ch : `_${ch.codePointAt(0)!.toString(16)}_`
  }
  return out === '' ? '_' : out
}

/** Cut long record text for the page, saying how much was left out. */
export function clip(text: string, max: number): string {
  const chars = [...text]
  return chars.length <= max ? text : `${chars.slice(0, max).join('')}… (${chars.length - max} more characters)`
}
