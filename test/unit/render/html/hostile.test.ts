import {fileURLToPath} from 'node:url'
import {beforeAll, describe, expect, it} from 'vitest'
import type {AnalysisReport} from '../../../../src/explain/analysis.js'
import {renderAnalyzeHtml} from '../../../../src/render/html/analyze.js'
import {anchorId, escapeHtml, html, join, raw} from '../../../../src/render/html/html.js'
import {signatureColour} from '../../../../src/render/html/signature-colour.js'
import {analyzeRunPath} from '../../../../src/services/analyze.js'
import {redactValue} from '../../../../src/shared/redact.js'
import {all, byTag, externalReferences, parseHtml, textOf} from './parse.js'

const DB003 = fileURLToPath(new URL('../../../../fixtures/runs/db-003-timeout', import.meta.url))
const PAYLOAD = `<script>alert(1)</script>"'><img src=x onerror=alert(2)></details></summary><a href="https://evil.example/x">&amp;\u0000\u001b[31m\u0085\ud800\r`

let db003: AnalysisReport

beforeAll(async () => {
  db003 = await analyzeRunPath(DB003, {names: [], with: [], without: [], tool: {name: 'guardkit-replay', version: 'test'}, progress: {step: () => undefined, done: () => undefined}})
}, 60_000)

/** Every string of the report changed by `f`: task ids, signatures, finding ids, profile names, evidence files, feedback… */
function mapStrings<T>(value: T, f: (s: string) => string): T {
  const go = (v: unknown): unknown => {
    if (typeof v === 'string') return f(v)
    if (Array.isArray(v)) return v.map(go)
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, go(x)]))
    return v
  }
  return go(value) as T
}

describe('the HTML report of hostile record text', () => {
  it.each([
    ['appended to', (s: string) => `${s}${PAYLOAD}`],
    ['in front of', (s: string) => `${PAYLOAD}${s}`],
  ])('stays one document with no markup of the records when every string has markup %s it', (_, f) => {
    const page = renderAnalyzeHtml(mapStrings(db003, f))
    const doc = parseHtml(page)
    expect(byTag(doc.root, 'script')).toHaveLength(1)
    expect(byTag(doc.root, 'img')).toEqual([])
    expect(externalReferences(doc)).toEqual([])
    const attrs = all(doc.root, () => true).flatMap((e) => Object.keys(e.attrs))
    expect(attrs.filter((a) => a.startsWith('on'))).toEqual([])
    expect(byTag(doc.root, 'a').map((a) => a.attrs['href']).filter((h) => !h!.startsWith('#'))).toEqual([])
    const ids = all(doc.root, (e) => e.attrs['id'] !== undefined).map((e) => e.attrs['id']!)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._-]+$/)
    const known = new Set(ids)
    expect(byTag(doc.root, 'a').map((a) => a.attrs['href']!).filter((h) => !known.has(h.slice(1)))).toEqual([])
    // the record text is shown, as text
    expect(textOf(doc.root)).toContain('<script>alert(1)</script>"\'><img src=x onerror=alert(2)>')
    // eslint-disable-next-line no-control-regex
    expect(page).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]|[\ud800-\udbff](?![\udc00-\udfff])/)
    // the timeline still has its 18 turns
    expect(all(doc.root, (e) => e.attrs['data-turn'] !== undefined && (e.attrs['id'] ?? '').includes('-t')).length).toBeGreaterThanOrEqual(18)
  })

  it('escapes text and attribute values alike, and keeps only printable characters', () => {
    expect(escapeHtml(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&#39;')
    // colour codes and titles of a capture are removed (the page shows what the terminal showed); other
    // control characters, bidirectional overrides and lone surrogates are shown escaped (docs/security.md)
    expect(escapeHtml('red \x1b[31mX\x1b[0m, title \x1b]0;t\x07, nul \0, crlf\r\n, c1 \x85, lone \ud800, rlo \u202e, nonchar \uffff')).toBe('red X, title , nul \\0, crlf\n, c1 \\x85, lone \\ud800, rlo \\u202e, nonchar \ufffd')
    // printed to a CI log (`--format html` without --out), no line of it starts a workflow command
    expect(escapeHtml('ok\n::add-mask::x\n##[error]y')).toBe('ok\n\\::add-mask::x\n#\\#[error]y')
    expect(escapeHtml('emoji 😀 stays')).toBe('emoji 😀 stays')
    const name = '"><x>'
    expect(html`<a title="${name}">${name}</a>${raw('<br>')}${join(['<', '>'], raw('|'))}`.value).toBe('<a title="&quot;&gt;&lt;x&gt;">&quot;&gt;&lt;x&gt;</a><br>&lt;|&gt;')
  })

  it('makes anchors of any task id, different ids staying different', () => {
    expect(anchorId('TASK-DB-003')).toBe('TASK-DB-003')
    const ids = ['TASK X', 'TASK_X', 'TASK-X', 'task/x', '<x>', '', '_20_']
    const anchors = ids.map(anchorId)
    expect(new Set(anchors).size).toBe(ids.length)
    for (const a of anchors) expect(a).toMatch(/^[A-Za-z0-9._-]+$/)
  })

  it('colours a signature from its hex alone: the same everywhere, different hues for different signatures', () => {
    expect(signatureColour('82511af6')).toEqual(signatureColour('82511af6'))
    // hue = first six hex digits scaled to 360°: 0x82511a / 2^24 × 360 ≈ 183°
    expect(signatureColour('82511af6').hue).toBe(Math.round((0x82511a / 0x1000000) * 360))
    const hues = ['deaab5ff', 'f696a94c', '7e14c185', '5ebda8f1', 'faddebcf', '82511af6'].map((s) => signatureColour(s).hue)
    expect(new Set(hues).size).toBe(hues.length)
    expect(signatureColour('<not hex>').background).toMatch(/^hsl\(\d+ 72% \d+%\)$/)
  })
})

describe('the HTML report with --redact', () => {
  it('shows nothing of the report that redaction removed: it draws only from the report it is given', () => {
    const token = 'sk-proj-Abc123def456ghi789jkl012'
    const planted: AnalysisReport = {
      ...db003,
      // planted where the task's reason shows: its why, and its primary cause (which the page shows instead when there is one)
      tasks: db003.tasks.map((t) => {
        if (t.task.taskId !== 'TASK-DB-003') return t
        const leak = `OPENAI_API_KEY=${token} for jane.doe@acme-corp.com`
        const diagnosis = t.diagnosis == null ? t.diagnosis : {...t.diagnosis, primary: {...t.diagnosis.primary, summary: `${t.diagnosis.primary.summary}; ${leak}`}}
        return {...t, diagnosis, verdict: {...t.verdict, why: `${t.verdict.why}; ${leak}`}}
      }),
    }
    const plain = renderAnalyzeHtml(planted)
    expect(plain).toContain('/Users/dev/src/fastapi')
    expect(plain).toContain(token)
    const redacted = renderAnalyzeHtml(redactValue(planted))
    expect(redacted).not.toContain(token)
    expect(redacted).not.toContain('jane.doe@acme-corp.com')
    expect(redacted).not.toContain('/Users/dev/')
    expect(parseHtml(redacted).doctype).toBe('html')
  })
})
