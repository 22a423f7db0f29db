import {describe, expect, it} from 'vitest'
import type {AnalysisReport} from '../../../src/explain/analysis.js'
import {renderAnalyzeMarkdown} from '../../../src/render/markdown/analyze.js'
import {legendLine, taskMark} from '../../../src/render/text/marks.js'
import {renderAnalyzeText} from '../../../src/render/text/analyze.js'
import {db003Report} from './analysis-builders.js'

/** TASK-DB-001 approved, but with a serious finding: the verdict is not ok. */
function approvedWithFindings(): AnalysisReport {
  const report = db003Report()
  const [db1, ...rest] = report.tasks
  expect(db1!.task.outcome?.value).toBe('approved')
  return {...report, tasks: [{...db1!, verdict: {...db1!.verdict, ok: false}}, ...rest]}
}

describe('marks: ✓ approved, ! approved with findings to read, ✗ not approved — an approval is never ✗', () => {
  it('classifies by the recorded outcome first', () => {
    const report = approvedWithFindings()
    expect(report.tasks.map(taskMark)).toEqual(['attention', 'ok', 'failed'])
  })

  it('text: the verdict lines and one legend line', () => {
    const out = renderAnalyzeText(approvedWithFindings(), {width: 120})
    expect(out).toMatch(/^TASK-DB-001 {2}! recorded: approved/m)
    expect(out).toMatch(/^TASK-DB-003 {2}✗ recorded: cancelled/m)
    expect(out.split('\n').filter((l) => l.startsWith('✓ approved ·'))).toHaveLength(1)
    expect(out).toContain('! approved, with findings to read · ✗ not approved')
  })

  it('Markdown: ⚠️ for an approval with findings, and the legend under the table', () => {
    const md = renderAnalyzeMarkdown(approvedWithFindings())
    expect(md).toContain('| ⚠️ TASK-DB-001 |')
    expect(md).not.toContain('| ❌ TASK-DB-001 |')
    expect(md).toContain('<sub>✅ approved · ⚠️ approved, with findings to read · ❌ not approved')
  })

  it('the legend lists only what the report uses', () => {
    expect(legendLine({marks: ['ok'], approximate: false, cut: false})).toBe('✓ approved')
    expect(legendLine({marks: ['failed', 'ok'], approximate: true, cut: true})).toBe('✓ approved · ✗ not approved · ~ approximate: rebuilt from partial records · … cut (--verbose shows it whole)')
  })
})
