import {createHash} from 'node:crypto'
import {basename} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import type {AnalysisReport} from '../../../../src/explain/analysis.js'
import {SEVERITY_ORDER, type Severity} from '../../../../src/model/finding.js'
import {renderAnalyzeHtml} from '../../../../src/render/html/analyze.js'
import {SCRIPT} from '../../../../src/render/html/page.js'
import {analyzeRunPath} from '../../../../src/services/analyze.js'
import {fixtureDirs} from '../../../golden/fixtures.js'
import {all, byTag, externalReferences, parseHtml, textOf, type Document, type El} from './parse.js'

const TOOL = {name: 'guardkit-replay', version: 'test'}
const SILENT = {step: () => undefined, done: () => undefined}

interface Rendered {
  readonly report: AnalysisReport
  readonly html: string
  readonly doc: Document
}

const rendered = new Map<string, Rendered>()

beforeAll(async () => {
  for (const dir of fixtureDirs()) {
    const report = await analyzeRunPath(dir, {names: [], with: [], without: [], tool: TOOL, progress: SILENT})
    const html = renderAnalyzeHtml(report)
    rendered.set(basename(dir), {report, html, doc: parseHtml(html)})
  }
}, 120_000)

function get(name: string): Rendered {
  const r = rendered.get(name)
  if (r === undefined) throw new Error(`fixture ${name} not rendered`)
  return r
}

const byId = (doc: Document) => new Map(all(doc.root, (e) => e.attrs['id'] !== undefined).map((e) => [e.attrs['id']!, e]))

describe.each(fixtureDirs().map((d) => basename(d)))('the HTML report of fixtures/runs/%s', (name) => {
  it('is one well-formed document that loads nothing from anywhere', () => {
    const {html, doc} = get(name)
    expect(doc.doctype).toBe('html')
    expect(externalReferences(doc)).toEqual([])
    const scripts = byTag(doc.root, 'script')
    expect(scripts).toHaveLength(1)
    expect(textOf(scripts[0]!)).toBe(SCRIPT)
    expect(byTag(doc.root, 'style')).toHaveLength(1)
    // the CSP allows exactly this script and no fetch of any kind
    const csp = byTag(doc.root, 'meta').find((m) => m.attrs['http-equiv'] === 'Content-Security-Policy')?.attrs['content'] ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain(`'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`)
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i)
    // eslint-disable-next-line no-control-regex
    expect(html).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/)
    expect(Buffer.byteLength(html)).toBeLessThan(1024 * 1024)
  })

  it('has unique ids, and every in-page link lands on one', () => {
    const {doc} = get(name)
    const ids = all(doc.root, (e) => e.attrs['id'] !== undefined).map((e) => e.attrs['id']!)
    expect(new Set(ids).size).toBe(ids.length)
    const known = new Set(ids)
    const dangling = byTag(doc.root, 'a').map((a) => a.attrs['href'] ?? '').filter((h) => !known.has(h.slice(1)))
    expect(dangling).toEqual([])
  })

  it('draws a timeline per task with one row per turn, and lists every finding once, most severe first', () => {
    const {report, doc} = get(name)
    const ids = byId(doc)
    for (const t of report.tasks) {
      const section = all(doc.root, (e) => isTask(e) && e.attrs['data-task'] === t.task.taskId && e.attrs['data-attempt'] === String(t.task.attempt))
      expect(section, `${t.task.taskId}#${t.task.attempt}`).toHaveLength(1)
      const turns = new Set([...t.task.turns.map((u) => u.turn), ...Object.values(t.replays).flatMap((r) => r.turns.map((u) => u.turn))])
      const rows = all(section[0]!, (e) => e.attrs['data-turn'] !== undefined)
      expect(rows.map((r) => Number(r.attrs['data-turn']))).toEqual([...turns].sort((a, b) => a - b))
      for (const row of rows) expect(row.tag).toBe('details')
      const listed = all(section[0]!, (e) => e.attrs['data-finding'] !== undefined)
      expect(listed.map((e) => e.attrs['id']).sort()).toEqual(t.findings.map((f) => f.id).sort())
      const ranks = listed.map((e) => SEVERITY_ORDER.indexOf(e.attrs['data-severity'] as Severity))
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
      for (const f of t.findings) {
        const el = ids.get(f.id)!
        // each cited turn is a link into this task's timeline
        const links = new Set(byTag(el, 'a').map((a) => a.attrs['href']))
        for (const turn of f.turns.filter((x) => turns.has(x))) {
          const first = f.turns.filter((x) => turns.has(x))
          if (turn === Math.min(...first) || turn === Math.max(...first)) expect(links.has(`#${section[0]!.attrs['id']}-t${turn}`), `${f.id} t${turn}`).toBe(true)
        }
        expect(all(el, (e) => e.tag === 'li' && /-e\d+$/.test(e.attrs['id'] ?? '')).length).toBe(Math.min(40, f.evidence.length))
      }
    }
  })

  it('shows the 0/N table wherever a recorded turn met 0 of N criteria', () => {
    const {report, doc} = get(name)
    for (const t of report.tasks) {
      const zero = t.task.turns.some((u) => u.coach.criteriaMet?.value === 0 && (u.coach.criteriaTotal?.value ?? 0) > 0)
      const section = all(doc.root, (e) => isTask(e) && e.attrs['data-task'] === t.task.taskId && e.attrs['data-attempt'] === String(t.task.attempt))[0]!
      expect(all(section, (e) => e.attrs['data-criteria-turn'] !== undefined).length, t.task.taskId).toBe(zero ? 1 : 0)
    }
  })
})

function row(doc: Document, id: string): El {
  const el = byId(doc).get(id)
  if (el === undefined) throw new Error(`no #${id}`)
  return el
}

function laneSig(rowEl: El, lane: string): string | null {
  const cell = all(rowEl, (e) => e.attrs['data-lane'] === lane)[0]
  const sig = cell === undefined ? undefined : all(cell, (e) => e.attrs['data-sig'] !== undefined)[0]
  return sig?.attrs['data-sig'] ?? null
}

describe('the HTML report of TASK-DB-003 (fixtures/runs/db-003-timeout/README.md)', () => {
  it('shows 18 turns, fixed stopping at turn 5 in the branch where its own feedback repeats, the timeout and the cancellation at turn 18', () => {
    const {doc} = get('db-003-timeout')
    const tl = all(doc.root, (e) => e.attrs['data-task'] === 'TASK-DB-003' && (e.attrs['class'] ?? '').split(' ').includes('tl'))[0]!
    expect(tl.attrs['data-turns']).toBe('18')
    expect(all(tl, (e) => e.attrs['data-turn'] !== undefined)).toHaveLength(18)
    const markersAt = (turn: number) => all(row(doc, `TASK-DB-003-t${turn}`), (e) => e.attrs['data-marker'] !== undefined).map((e) => e.attrs['data-marker'])
    // fixed is undetermined (README): its stall at turn 5 holds only if its own wording repeats as the recorded one does
    expect(markersAt(5)).toContain('fixed-stall')
    const stall = all(row(doc, 'TASK-DB-003-t5'), (e) => e.attrs['data-marker'] === 'fixed-stall')[0]!
    expect(textOf(stall)).toMatch(/fixed stops here if fixed's own feedback \(not in the records\) repeated where the recorded feedback did/)
    expect(markersAt(18)).toEqual(expect.arrayContaining(['timeout', 'cancelled']))
    for (const turn of [1, 2, 3, 4, 6, 17]) expect(markersAt(turn)).toEqual([])
    // no branch-independent window or firing under fixed, and the fixed lane goes on (the other branch) after turn 5;
    // the cell names its lane (for screen readers, and on a narrow screen), then its content
    expect(all(tl, (e) => e.attrs['data-window'] === 'fixed')).toEqual([])
    expect(textOf(all(row(doc, 'TASK-DB-003-t6'), (e) => e.attrs['data-lane'] === 'fixed')[0]!)).not.toBe('fixed: stopped')
    // the waste rests on the recorded feedback itself, whose normalised signatures repeat by turn 5
    expect(row(doc, 'TASK-DB-003-t6').attrs['data-wasted']).toBe('true')
    expect(row(doc, 'TASK-DB-003-t5').attrs['data-wasted']).toBeUndefined()
  })

  it('marks the window a profile\'s rule looked at when it fired: turns 2-4 for the run\'s own code on seed 004 (ae7e-promise-loss)', () => {
    const {doc} = get('ae7e-promise-loss')
    const tl = all(doc.root, (e) => e.attrs['data-task'] === 'TASK-USR-003' && (e.attrs['class'] ?? '').split(' ').includes('tl'))[0]!
    expect(all(tl, (e) => e.attrs['data-window'] === 'as-run:51222879').map(ancestorTurn)).toEqual([2, 3, 4])
  })

  it('colours the signatures the README derives: the recorded 3-cycle; fixed signs only the feedback it words itself', () => {
    const {doc} = get('db-003-timeout')
    const recorded = (turn: number) => laneSig(row(doc, `TASK-DB-003-t${turn}`), 'recorded')
    expect([1, 2, 3, 4, 5, 6, 7].map(recorded)).toEqual(['deaab5ff', 'f696a94c', 'deaab5ff', '7e14c185', '5ebda8f1', 'deaab5ff', 'faddebcf'])
    // fixed words test failures otherwise (docs/guardkit-logic.md §6.6, §6.7): no signature from the recorded text; the coverage gate's is its own
    expect([1, 3, 4].map((t) => laneSig(row(doc, `TASK-DB-003-t${t}`), 'fixed'))).toEqual([null, null, null])
    expect(laneSig(row(doc, 'TASK-DB-003-t2'), 'fixed')).toBe('f696a94c')
    const style = (turn: number, lane: string) => all(all(row(doc, `TASK-DB-003-t${turn}`), (e) => e.attrs['data-lane'] === lane)[0]!, (e) => e.attrs['data-sig'] !== undefined)[0]!.attrs['style']
    expect(style(1, 'recorded')).toBe(style(3, 'recorded'))
    expect(style(1, 'recorded')).not.toBe(style(4, 'recorded'))
    // a text label beside every colour: the legend names each signature in full
    const legend = all(doc.root, (e) => e.attrs['data-legend-sig'] !== undefined).map((e) => e.attrs['data-legend-sig'])
    expect(legend).toEqual(expect.arrayContaining(['deaab5ff', 'f696a94c', '7e14c185', '5ebda8f1', 'faddebcf']))
    expect(legend).not.toContain('82511af6')
  })

  it('links each finding to the turns it cites: the duplicate test paths to turns 1 and 7', () => {
    const {doc} = get('db-003-timeout')
    const dup = all(doc.root, (e) => e.attrs['data-finding'] === 'ABSOLUTE_RELATIVE_DUPLICATES')[0]!
    const head = all(dup, (e) => e.attrs['class'] === 'finding-head')[0]!
    expect(byTag(head, 'a').map((a) => a.attrs['href']).filter((h) => h!.includes('-t'))).toEqual(['#TASK-DB-003-t1', '#TASK-DB-003-t7'])
    // the timeout's finding is at turn 18, and turn 18's detail links back to it
    const ended = all(doc.root, (e) => e.attrs['data-finding'] === 'ENDED_BY_TIMEOUT_NOT_STALL')[0]!
    expect(byTag(row(doc, 'TASK-DB-003-t18'), 'a').map((a) => a.attrs['href'])).toContain(`#${ended.attrs['id']}`)
  })

  it('puts the verdicts first, before any task section', () => {
    const {html} = get('db-003-timeout')
    const verdicts = html.indexOf('class="grid verdicts')
    expect(verdicts).toBeGreaterThan(0)
    expect(verdicts).toBeLessThan(html.indexOf('<section class="task"'))
    expect(html).toMatch(/<tr data-verdict="attention" data-mark="failed"><th scope="row">.*TASK-DB-003<\/a><\/th><td class="outcome" data-label="recorded">cancelled at turn 18 \(feature task timeout, 2400 s\)<\/td>/)
  })
})

/** A task's block: a section when it needs attention, a collapsed details when it went well. */
function isTask(e: El): boolean {
  return (e.tag === 'section' || e.tag === 'details') && (e.attrs['class'] ?? '').split(' ').includes('task')
}

function ancestorTurn(e: El): number {
  for (let p = e.parent; p !== null; p = p.parent) if (p.attrs['data-turn'] !== undefined) return Number(p.attrs['data-turn'])
  return -1
}

describe('the HTML report of a damaged capture (fixtures/runs/hostile-log)', () => {
  it('keeps no escape sequence, NUL or CR of the log, and still reports both tasks', () => {
    const {html, doc, report} = get('hostile-log')
    expect(html).not.toContain('\x1b')
    expect(html).not.toContain('\r')
    expect(html).not.toContain('\0')
    expect(report.tasks.map((t) => t.task.taskId)).toEqual(['TASK-ENV-001', 'TASK-ENV-002'])
    for (const id of ['TASK-ENV-001', 'TASK-ENV-002']) expect(all(doc.root, (e) => isTask(e) && e.attrs['data-task'] === id)).toHaveLength(1)
  })
})
