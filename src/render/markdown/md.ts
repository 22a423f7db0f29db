import type {Evidence} from '../../model/evidence.js'
import {neutraliseBlock, neutraliseInline} from '../../shared/neutralise.js'
import {evidenceQuote, formatEvidence} from '../text/text-options.js'

/**
 * Markdown building blocks for GitHub/GitLab comments and step summaries. Text from the records
 * (feedback, criteria, log lines) is untrusted: control characters are shown escaped and no line
 * can start a CI workflow command (src/shared/neutralise.ts), and `<`, `>`, `&` are escaped, so a
 * log line cannot inject HTML, close a `<details>` block or break a table.
 */

/** Plain text in a paragraph or list item. */
export function mdText(s: string): string {
  return neutraliseBlock(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** Text in a table cell: one line, pipes escaped. */
export function mdCell(s: string): string {
  return mdText(s).replace(/\|/g, '\\|').replace(/\n/g, '<br>')
}

/** Inline code; the fence is longer than any run of backticks inside. */
export function mdCode(s: string): string {
  const clean = neutraliseInline(s.replace(/\r?\n/g, ' '))
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((r) => r.length))
  const fence = '`'.repeat(longest + 1)
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${clean}${pad}${fence}`
}

/** A fenced block (```text) that no line of the content can close. */
export function mdBlock(s: string, lang = 'text'): string[] {
  const clean = neutraliseBlock(s)
  const longest = Math.max(2, ...(clean.match(/`{3,}/g) ?? []).map((r) => r.length))
  const fence = '`'.repeat(longest + 1)
  return [`${fence}${lang}`, ...clean.split('\n'), fence]
}

export function mdTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)]
}

/** A collapsed section; the blank lines let GitHub render Markdown inside it. */
export function mdDetails(summary: string, body: readonly string[]): string[] {
  return ['<details>', `<summary>${mdText(summary)}</summary>`, '', ...body, '', '</details>']
}

/** Columns of a quoted log line in Markdown; the JSON report holds it whole. */
const QUOTE = 200

/**
 * A piece of evidence: `run.log:253`, and when the record carries the line's text, that text beside
 * it as inline code (trimmed, cut at a word; code spans cannot inject Markdown or HTML).
 */
export function mdEvidence(e: Evidence): string {
  const quote = evidenceQuote(e, QUOTE)
  return quote === '' ? mdCode(formatEvidence(e)) : `${mdCode(formatEvidence(e))} ${mdCode(quote)}`
}

/**
 * A finding's evidence as Markdown list content: the places in one line when no line is quoted,
 * else one nested item per place with its quote.
 */
export function mdEvidenceList(evidence: readonly Evidence[], indent: string): {readonly inline: string; readonly nested: readonly string[]} {
  if (evidence.every((e) => evidenceQuote(e) === '')) return {inline: evidence.map((e) => mdCode(formatEvidence(e))).join(', '), nested: []}
  return {inline: '', nested: evidence.map((e) => `${indent}- ${mdEvidence(e)}`)}
}
