import {describe, expect, it} from 'vitest'
import type {AnalysisReport} from '../../../src/explain/analysis.js'
import {renderAnalyzeHtml} from '../../../src/render/html/analyze.js'
import {renderAnalyzeMarkdown} from '../../../src/render/markdown/analyze.js'
import {renderExplainMarkdown} from '../../../src/render/markdown/explain.js'
import {renderAnalyzeText} from '../../../src/render/text/analyze.js'
import {db003Report, undiagnosed} from './analysis-builders.js'
import {byTag, parseHtml, textOf} from './html/parse.js'

const LINE = 'sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused'

/** TASK-DB-003's first finding with the text of its first log line, as ingest keeps it for quoting. */
function quotedReport(text: string): AnalysisReport {
  const report = db003Report()
  const db3 = report.tasks[2]!
  const [first, ...rest] = db3.findings
  const evidence = first!.evidence.map((e, i) => (i === 0 ? {...e, text} : e))
  return {...report, tasks: [report.tasks[0]!, report.tasks[1]!, {...db3, findings: [{...first!, evidence}, ...rest]}]}
}

describe('evidence is quoted: beside file:line, the deciding line\'s text', () => {
  it('text (--verbose, explain): the line, trimmed, beside or under its place', () => {
    const report = quotedReport(`   ${LINE}\t  `)
    const where = report.tasks[2]!.findings[0]!.evidence[0]!
    const out = renderAnalyzeText(report, {verbose: true, width: 200})
    expect(out).toContain(`at ${where.file}:${where.line}  “${LINE}”`)
    const narrow = renderAnalyzeText(report, {verbose: true, width: 80}).split('\n')
    const at = narrow.findIndex((l) => l.trim() === `at ${where.file}:${where.line}`)
    expect(at).toBeGreaterThan(0)
    expect(narrow[at + 1]!.trim().startsWith('“sqlalchemy.exc.OperationalError:')).toBe(true)
  })

  it('text: control characters in the quoted line never reach the terminal', () => {
    const out = renderAnalyzeText(quotedReport(`evil \x1b[2J\x1b]0;title\x07 line`), {verbose: true, width: 200})
    expect(out).not.toContain('\x1b')
    expect(out).not.toContain('\x07')
    // shown escaped (docs/security.md): ESC as \e, BEL as \a
    expect(out).toContain('“evil \\e[2J\\e]0;title\\a line”')
  })

  it('Markdown: the line as inline code beside its place, in the evidence of analyze and explain', () => {
    const report = quotedReport(`${LINE} </details><script>x()</script>`)
    const md = renderAnalyzeMarkdown(report)
    const where = report.tasks[2]!.findings[0]!.evidence[0]!
    expect(md).toContain(`  - \`${where.file}:${where.line}\` \`${LINE} </details><script>x()</script>\``)
    const explain = renderExplainMarkdown(report, {task: report.tasks[2]!, turn: null, profiles: ['legacy', 'fixed']})
    expect(explain).toContain(`\`${LINE} </details><script>x()</script>\``)
    // outside a code span nothing of the line is markup
    expect(md.replace(/`[^`\n]*`/g, '')).not.toContain('<script>')
  })

  it('HTML: the line in a <q> under its place, escaped', () => {
    const doc = parseHtml(renderAnalyzeHtml(quotedReport(`${LINE} <img src=x onerror=alert(1)>`)))
    const quotes = byTag(doc.root, 'q')
    expect(quotes.map(textOf)).toContain(`${LINE} <img src=x onerror=alert(1)>`)
    expect(byTag(doc.root, 'img')).toHaveLength(0)
  })

  it('no text, no quote: the place alone, as before', () => {
    const out = renderAnalyzeText(db003Report(), {verbose: true, width: 200})
    expect(out).not.toContain('“')
    // the builder's diagnosis quotes its deciding line; without it no evidence carries text
    expect(byTag(parseHtml(renderAnalyzeHtml(undiagnosed(db003Report()))).root, 'q')).toHaveLength(0)
  })
})
