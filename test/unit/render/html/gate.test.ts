import {fileURLToPath} from 'node:url'
import {beforeAll, describe, expect, it} from 'vitest'
import type {GateReport} from '../../../../src/render/gate-report.js'
import {renderGateHtml} from '../../../../src/render/html/gate.js'
import {runGate} from '../../../../src/services/gate/run-gate.js'
import {all, byTag, externalReferences, parseHtml, textOf} from './parse.js'

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/runs', import.meta.url))
const ROOT = fileURLToPath(new URL('../../../..', import.meta.url))
const PAYLOAD = `<script>alert(1)</script>"'><img src=x onerror=alert(2)>\u0000\u001b[31m`

let report: GateReport

beforeAll(async () => {
  // every fixture gated with legacy as the candidate: regressions, changes and unchanged tasks
  const result = await runGate([FIXTURES], {tool: {name: 'guardkit-replay', version: 'test'}, baseline: 'fixed', candidate: 'legacy', progress: false, jobs: 1, env: {}, cwd: ROOT})
  report = result.report
}, 120_000)

describe('gate --html: the corpus on one page', () => {
  it('is one well-formed, self-contained document whose in-page links all land', () => {
    const doc = parseHtml(renderGateHtml(report))
    expect(doc.doctype).toBe('html')
    expect(externalReferences(doc)).toEqual([])
    expect(byTag(doc.root, 'script')).toHaveLength(1)
    const ids = all(doc.root, (e) => e.attrs['id'] !== undefined).map((e) => e.attrs['id']!)
    expect(new Set(ids).size).toBe(ids.length)
    const known = new Set(ids)
    expect(byTag(doc.root, 'a').map((a) => a.attrs['href']!).filter((h) => !known.has(h.slice(1)))).toEqual([])
  })

  it('puts the verdict first and the regressions before anything else, failing ones first', () => {
    expect(report.summary.regressed).toBeGreaterThan(0)
    const page = renderGateHtml(report)
    const doc = parseHtml(page)
    const verdict = all(doc.root, (e) => e.attrs['data-verdict'] !== undefined)[0]!
    expect(verdict.attrs['data-verdict']).toBe(report.verdict)
    expect(textOf(verdict)).toBe(report.verdict === 'fail' ? '✗ FAIL' : '✓ PASS')
    const order = all(doc.root, (e) => e.tag === 'section' && e.attrs['data-class'] !== undefined).map((e) => e.attrs['data-class'])
    expect(order[0]).toBe('regressed')
    expect(order).toEqual(['regressed', 'changed', 'improved', 'skipped', 'unchanged'].filter((c) => order.includes(c)))
    const regressed = all(doc.root, (e) => e.tag === 'article' && e.attrs['data-class'] === 'regressed').map((e) => e.attrs['data-failing'])
    expect(regressed).toEqual([...regressed].sort().reverse())
  })

  it('opens with the summary and a table of contents that links every card, failing ones first', () => {
    const doc = parseHtml(renderGateHtml(report))
    const main = byTag(doc.root, 'main')[0]!
    const sections = main.children.filter((c): c is typeof main => typeof c !== 'string')
    expect(sections[0]!.attrs['class']).toBe('gate-summary')
    expect(sections[1]!.tag).toBe('nav')
    const toc = sections[1]!
    const linked = new Set(byTag(toc, 'a').map((a) => a.attrs['href']!.slice(1)))
    const cards = all(doc.root, (e) => e.tag === 'article' && e.attrs['data-task'] !== undefined)
    for (const card of cards) expect(linked.has(card.attrs['id']!), card.attrs['id']).toBe(true)
    // a card that does not fail the gate is collapsed until opened; a failing one is open
    for (const card of cards) {
      const collapsed = card.children.some((c) => typeof c !== 'string' && c.tag === 'details')
      expect(collapsed, card.attrs['id']).toBe(card.attrs['data-failing'] !== 'true')
    }
  })

  it('keeps headings in order and gives every table a caption', () => {
    const doc = parseHtml(renderGateHtml(report))
    const levels = all(doc.root, (e) => /^h[1-6]$/.test(e.tag)).map((e) => Number(e.tag.slice(1)))
    expect(levels[0]).toBe(1)
    for (let i = 1; i < levels.length; i++) expect(levels[i]!).toBeLessThanOrEqual(levels[i - 1]! + 1)
    for (const table of byTag(doc.root, 'table')) expect(byTag(table, 'caption')).toHaveLength(1)
  })

  it('shows every task once: a card for each that is not unchanged, a table row for the rest', () => {
    const doc = parseHtml(renderGateHtml(report))
    const tasks = report.runs.flatMap((r) => r.tasks.map((t) => ({...t, run: r.path})))
    const cards = all(doc.root, (e) => e.tag === 'article' && e.attrs['data-task'] !== undefined)
    const rows = all(doc.root, (e) => e.tag === 'tr' && e.attrs['data-class'] === 'unchanged')
    expect(cards.length).toBe(tasks.filter((t) => t.classification !== 'unchanged').length)
    expect(rows.length).toBe(tasks.filter((t) => t.classification === 'unchanged').length)
    expect(cards.length + rows.length).toBe(report.summary.tasks)
    for (const card of cards) {
      const t = tasks.find((x) => x.run === card.attrs['data-run'] && x.taskId === card.attrs['data-task'] && String(x.attempt) === card.attrs['data-attempt'])!
      expect(card.attrs['data-class']).toBe(t.classification)
      expect(all(card, (e) => e.attrs['data-rule'] !== undefined).map((e) => e.attrs['data-rule'])).toEqual(t.reasons.map((r) => r.rule))
    }
  })

  it('draws the turns side by side with the stall markers where each side stalls', () => {
    const doc = parseHtml(renderGateHtml(report))
    const stalled = report.runs.flatMap((r) => r.tasks.map((t) => ({...t, run: r.path}))).filter((t) => t.turns !== null && t.candidate.stallTurn !== null && t.turns.some((u) => u.turn === t.candidate.stallTurn))
    expect(stalled.length).toBeGreaterThan(0)
    for (const t of stalled) {
      const card = all(doc.root, (e) => e.tag === 'article' && e.attrs['data-run'] === t.run && e.attrs['data-task'] === t.taskId && e.attrs['data-attempt'] === String(t.attempt))[0]!
      expect(all(card, (e) => e.attrs['data-turn'] !== undefined).length).toBe(t.turns!.length)
      const row = all(card, (e) => e.attrs['data-turn'] === String(t.candidate.stallTurn))[0]!
      expect(all(row, (e) => e.attrs['data-marker'] === 'candidate-stall')).toHaveLength(1)
    }
  })

  it('escapes every string of the report', () => {
    const hostile = JSON.parse(JSON.stringify(report), (_, v: unknown) => (typeof v === 'string' ? `${v}${PAYLOAD}` : v)) as GateReport
    const page = renderGateHtml(hostile)
    const doc = parseHtml(page)
    expect(byTag(doc.root, 'script')).toHaveLength(1)
    expect(byTag(doc.root, 'img')).toEqual([])
    expect(all(doc.root, () => true).flatMap((e) => Object.keys(e.attrs)).filter((a) => a.startsWith('on'))).toEqual([])
    expect(externalReferences(doc)).toEqual([])
    expect(page).not.toContain('\x1b')
  })

  it('says PASS for a corpus with nothing to gate', () => {
    const empty: GateReport = {...report, runs: [], problems: [], verdict: 'pass', summary: {runs: 0, tasks: 0, unchanged: 0, improved: 0, regressed: 0, changed: 0, skipped: 0, failing: 0, approximate: 0}}
    const doc = parseHtml(renderGateHtml(empty))
    expect(textOf(all(doc.root, (e) => e.attrs['data-verdict'] === 'pass')[0]!)).toBe('✓ PASS')
    expect(all(doc.root, (e) => e.tag === 'article')).toEqual([])
  })
})
