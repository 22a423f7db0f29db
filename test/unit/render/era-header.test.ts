import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {analyzeRun} from '../../../src/explain/analyze-run.js'
import {present} from '../../../src/render/present.js'
import {ReportSchema} from '../../../src/render/json/report.js'
import {PLAIN} from '../../../src/render/text/plain-palette.js'
import {loadRunContent} from '../../../src/services/load-run.js'

/**
 * "Outside the modelled window, say it once": a run of another GuardKit era gets one header line naming its era
 * (with the records that place it) and one `run.era` in --json; no task or profile repeats a "not modelled" line.
 * The run is the authored December 2025 transcript of fixtures/ingest/eras.
 */
const log = fileURLToPath(new URL('../../../fixtures/ingest/eras/dec-2025-feature-build-transcript/run.log', import.meta.url))
const STATEMENT = 'the February 2026 logic is not replayed; the diagnosis reads the records'
const surface = {palette: PLAIN, width: 100, verbose: false}

describe('a run outside the modelled window, in every format', async () => {
  const report = analyzeRun(await loadRunContent(log))
  const text = async (format: 'text' | 'md' | 'html') => {
    const d = await present({kind: 'analysis', report}, format, surface)
    return d.kind === 'text' ? d.text : ''
  }

  it('names the era once in the text report, and repeats nothing per task or profile', async () => {
    const t = (await text('text')).replace(/\n\s+/g, ' ')
    expect(t.split('GuardKit of December 2025 – January 2026 (/feature-build, the first AutoBuild)').length - 1).toBe(1)
    expect(t.split(STATEMENT).length - 1).toBe(1)
    expect(t).not.toMatch(/not modelled|\blegacy\b|\bfixed\b +not/)
    expect(t).toContain('orchestrator-init-v1')
  })

  it('names it once in Markdown and HTML too', async () => {
    expect((await text('md')).split(STATEMENT).length - 1).toBe(1)
    expect((await text('html')).split(STATEMENT).length - 1).toBe(1)
  })

  it('says it once in explain and whatif too, and whatif says why nothing was searched', async () => {
    const task = report.tasks[0]!
    const explain = await present({kind: 'explain', report, task, turn: null, profiles: []}, 'text', surface)
    expect((explain.kind === 'text' ? explain.text : '').replace(/\n\s*/g, ' ').split(STATEMENT).length - 1).toBe(1)
    const whatif = await present({kind: 'whatif', report, tasks: report.tasks, only: null}, 'text', surface)
    const w = whatif.kind === 'text' ? whatif.text : ''
    expect(w.replace(/\n\s*/g, ' ').split(STATEMENT).length - 1).toBe(1)
    expect(w).toContain('not searched: nothing is replayed for this run (its era, above)')
    expect(w).not.toContain('could not be replayed')
  })

  it('puts one run.era in --json, with no replay per task and no profile', async () => {
    const d = await present({kind: 'analysis', report}, 'json', surface)
    const json = ReportSchema.parse(d.kind === 'json' ? d.json : null)
    expect(json.run.era).toMatchObject({label: 'December 2025 – January 2026', replayed: false, confidence: 'high',
      statement: `GuardKit of December 2025 – January 2026 (/feature-build, the first AutoBuild): ${STATEMENT}`})
    expect(json.profiles).toEqual([])
    for (const t of json.tasks) expect(t.replay).toEqual({})
    expect(JSON.stringify(json.tasks)).not.toContain('not modelled')
  })

  it('still gives every recorded fact and the findings that need no replay', () => {
    const e1 = report.tasks.find((t) => t.task.taskId === 'TASK-E1A-001' && t.task.attempt === 1)!
    expect(e1.verdict.happened).toBe('max_turns_exceeded after 3 turns')
    expect(e1.findings.map((f) => f.code)).toContain('MAX_TURNS_WITHOUT_STALL')
    expect(e1.findings.find((f) => f.code === 'MAX_TURNS_WITHOUT_STALL')!.message).toContain('had no stall detector yet')
    expect(e1.findings.map((f) => f.code)).not.toContain('STALL_DEFEATED_BY_VARIABLE_OUTPUT')
  })
})
