// What matters first, for every reader: failing tasks first and the rest collapsed, the primary cause
// at the top of a task, the wasted turns visible, headings in order, native details/summary, captions.
import {describe, expect, it} from 'vitest'
import type {AnalysisReport, TaskAnalysis} from '../../../../src/explain/analysis.js'
import {renderAnalyzeHtml, taskOrder} from '../../../../src/render/html/analyze.js'
import {db003Report, undiagnosed} from '../analysis-builders.js'
import {all, byTag, parseHtml, textOf, type El} from './parse.js'

function headings(root: El): number[] {
  return all(root, (e) => /^h[1-6]$/.test(e.tag)).map((e) => Number(e.tag.slice(1)))
}

/** TASK-DB-003 with the primary cause the diagnosis names (the model's shape; docs/root-causes.md). */
function diagnosed(report: AnalysisReport): AnalysisReport {
  const tasks = report.tasks.map((t): TaskAnalysis => {
    if (t.task.taskId !== 'TASK-DB-003') return t
    const f = t.findings[0]!
    return {...t, diagnosis: {primary: {category: 'test-environment', findingId: f.id, summary: 'The Coach ran the tests where the database was unreachable.', evidence: [{file: 'run.log', line: 253, text: 'sqlalchemy.exc.OperationalError: connection refused'}]}, contributing: [{category: 'loop-control', findingIds: [t.findings[1]!.id]}], confidence: 'certain'}}
  })
  return {...report, tasks}
}

describe('the HTML report puts what matters first', () => {
  it('orders tasks: not approved first, most severe finding first within; tasks that went well last and collapsed', () => {
    const report = db003Report()
    // report order is TASK-DB-001, -002, -003; only -003 failed
    expect(taskOrder(report.tasks).map((i) => report.tasks[i]!.task.taskId)).toEqual(['TASK-DB-003', 'TASK-DB-001', 'TASK-DB-002'])
    const doc = parseHtml(renderAnalyzeHtml(report))
    const rows = all(doc.root, (e) => e.tag === 'tr' && e.attrs['data-verdict'] !== undefined).map((e) => textOf(byTag(e, 'a')[0]!))
    expect(rows).toEqual(['TASK-DB-003', 'TASK-DB-001', 'TASK-DB-002'])
    const tasks = all(doc.root, (e) => e.attrs['data-task'] !== undefined && (e.attrs['class'] ?? '').split(' ').includes('task'))
    expect(tasks.map((e) => [e.attrs['data-task'], e.tag, e.attrs['open']])).toEqual([
      ['TASK-DB-003', 'section', undefined],
      ['TASK-DB-001', 'details', undefined],
      ['TASK-DB-002', 'details', undefined],
    ])
  })

  it('an approved task is never drawn ✗', () => {
    const doc = parseHtml(renderAnalyzeHtml(db003Report()))
    for (const row of all(doc.root, (e) => e.tag === 'tr' && e.attrs['data-mark'] !== undefined)) {
      const mark = textOf(all(row, (e) => (e.attrs['class'] ?? '').includes('mark'))[0]!)
      expect(mark).toBe(row.attrs['data-mark'] === 'failed' ? '✗' : row.attrs['data-mark'] === 'attention' ? '!' : '✓')
    }
  })

  it('the primary cause opens the task: category, sentence, the finding, the deciding line quoted', () => {
    const doc = parseHtml(renderAnalyzeHtml(diagnosed(db003Report())))
    const section = all(doc.root, (e) => e.tag === 'section' && e.attrs['data-task'] === 'TASK-DB-003')[0]!
    const first = section.children.filter((c) => typeof c !== 'string') as El[]
    expect(first[0]!.tag).toBe('h2')
    expect(first[1]!.attrs['data-primary']).toBe('test-environment')
    const text = textOf(first[1]!)
    expect(text).toContain('The Coach ran the tests where the database was unreachable.')
    expect(text).toContain('sqlalchemy.exc.OperationalError: connection refused')
    expect(text).toContain('loop-control')
  })

  it('without a diagnosis, the task opens with why, drawn from the findings', () => {
    const doc = parseHtml(renderAnalyzeHtml(undiagnosed(db003Report())))
    const section = all(doc.root, (e) => e.tag === 'section' && e.attrs['data-task'] === 'TASK-DB-003')[0]!
    const first = section.children.filter((c) => typeof c !== 'string') as El[]
    expect(first[1]!.attrs['data-primary']).toBe('why')
    expect(textOf(first[1]!)).toContain('could not reach the database')
  })

  it('shows the wasted turns as a band above the timeline and on each wasted row, in words', () => {
    const doc = parseHtml(renderAnalyzeHtml(db003Report()))
    const band = all(doc.root, (e) => e.attrs['data-wasted-turns'] !== undefined)
    expect(band).toHaveLength(1)
    expect(band[0]!.attrs['data-wasted-turns']).toBe('13')
    expect(textOf(band[0]!)).toContain('13 turns wasted')
    const wasted = all(doc.root, (e) => e.attrs['data-wasted'] === 'true')
    expect(wasted.map((e) => Number(e.attrs['data-turn']))).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18])
    for (const row of wasted) expect(textOf(all(row, (e) => e.attrs['data-marker-wasted'] === 'true')[0]!)).toBe('wasted')
  })

  it('headings never skip a level; details and summary keep their native roles; every table has a caption', () => {
    const doc = parseHtml(renderAnalyzeHtml(diagnosed(db003Report())))
    const levels = headings(doc.root)
    expect(levels[0]).toBe(1)
    for (let i = 1; i < levels.length; i++) expect(levels[i]!, `heading ${i}: h${levels[i - 1]} then h${levels[i]}`).toBeLessThanOrEqual(levels[i - 1]! + 1)
    expect(all(doc.root, (e) => (e.tag === 'summary' || e.tag === 'details') && e.attrs['role'] !== undefined)).toEqual([])
    expect(all(doc.root, (e) => e.attrs['role'] === 'row' || e.attrs['role'] === 'table')).toEqual([])
    for (const table of byTag(doc.root, 'table')) expect(byTag(table, 'caption'), (table.attrs['class'] ?? '')).toHaveLength(1)
  })
})
