import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import type {GateReport} from '../../../src/render/gate-report.js'
import {runCli} from '../../helpers/cli.js'
import {CORPUS_LOGS as LOGS} from '../helpers.js'

afterEach(() => {
  process.exitCode = undefined
})

const task = (r: GateReport, run: string, taskId: string) => r.runs.find((x) => x.path.endsWith(run))!.tasks.find((t) => t.taskId === taskId)!

describe('gate: runs outside the modelled window', () => {
  it('are skipped with the reason (not a failure), unless --fail-on skipped', async () => {
    const args = ['gate', join(LOGS, 'FEAT-GI.log'), join(LOGS, 'api_docs_2.log'), '--baseline', 'legacy', '--candidate', 'fixed', '--json']
    const report = JSON.parse((await runCli(args)).stdout) as GateReport
    expect(process.exitCode ?? 0).toBe(0)
    const gi = report.runs.find((r) => r.path.endsWith('FEAT-GI.log'))!
    expect(gi.era).toMatchObject({modelled: false})
    expect(gi.tasks.length).toBeGreaterThan(0)
    for (const t of gi.tasks) expect(t).toMatchObject({classification: 'skipped', failing: false, skipReason: expect.stringMatching(/^not modelled: the run is older than the modelled window/)})
    // api_docs_2 approves TASK-DOC-001 with its criteria pending (that era's Coach): not a false approval
    expect(task(report, 'api_docs_2.log', 'TASK-DOC-001').classification).toBe('improved')
    process.exitCode = undefined
    const strict = JSON.parse((await runCli([...args, '--fail-on', 'skipped'])).stdout) as GateReport
    expect(process.exitCode).toBe(1)
    expect(strict.summary.failing).toBe(gi.tasks.length)
  })
})
