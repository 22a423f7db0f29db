import {createHash} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {asRunName, load, replay} from '../../unit/replay/helpers.js'
import {CORPUS} from '../helpers.js'

/**
 * Wherever a log records `Feedback stall: … (sig=…)` and the feedback can be rebuilt, the replayed
 * signature must equal the recorded one (docs/counterfactuals.md "Exact means exact"). The records
 * are read from the logs here (not through ingest): each WARNING line and the task its ERROR line names.
 */
interface StallLine {
  readonly log: string
  readonly line: number
  readonly signature: string
  readonly taskId: string
}

function stallLines(): StallLine[] {
  const out: StallLine[] = []
  for (const log of readdirSync(`${CORPUS}logs`).sort()) {
    const lines = readFileSync(`${CORPUS}logs/${log}`, 'utf8').split('\n')
    lines.forEach((text, i) => {
      const m = /Feedback stall: identical feedback \(sig=([0-9a-f]{8})\)/.exec(text)
      if (!m) return
      const error = lines.slice(i + 1, i + 4).map((l) => /Feedback stall detected for (TASK-[\w-]*\w)/.exec(l)).find((x) => x)
      out.push({log, line: i + 1, signature: m[1]!, taskId: error![1]!})
    })
  }
  return out
}

/**
 * Feedback whose full text the log lets us rebuild (the 0/N diagnostic dump holds every criterion's
 * text, docs/guardkit-logic.md §7.2; the zero-test anomaly texts are fixed strings,
 * docs/guardkit-logic.md §6.8; texts under 80 code points are shown whole). The other five embed
 * pytest output the log cuts at 80 code points.
 */
const REBUILDABLE: Readonly<Record<string, string>> = {
  'api_docs_2.log:e4f8e92b': 'zero-test anomaly "no tests were executed" text (docs/guardkit-logic.md §6.8)',
  'db_failed_2.log:f24a4581': 'zero-test anomaly "Coach searched" text with the task prefix (D35)',
  'db_stalled.log:36d91c7c': 'zero-test anomaly legacy text (D35)',
  'first_task_now_fails.log:48a39a54': 'the 0/6 diagnostic dump',
  'run_1.log:c1ddd473': 'the feedback line itself (shorter than 80 code points)',
  'run_1.log:bbaba24c': 'the "Requirements not met … missing [...]" list',
}

const md5sig = (text: string): string => createHash('md5').update(text.trim().toLowerCase(), 'utf8').digest('hex').slice(0, 8)

describe('the eleven recorded stall signatures of the public corpus', () => {
  const records = stallLines()

  it('are eleven', () => {
    expect(records).toHaveLength(11)
  })

  it.each(records.map((r) => [`${r.log}:${r.line} ${r.taskId} ${r.signature}`, r] as const))('%s is reproduced under the inferred profile', async (_, r) => {
    const run = await load(`${CORPUS}logs/${r.log}`)
    const task = run.tasks.find((t) => t.taskId === r.taskId && t.stall?.signature === r.signature)!
    expect(task).toBeDefined()
    const replayed = replay(run, task, asRunName(run))
    expect(replayed.stallTurn).toBe(task.stall!.turn)
    const turn = replayed.turns.find((t) => t.turn === replayed.stallTurn)!
    expect(turn.signature).toBe(r.signature)
    expect(turn.stall?.fired).toBe(true)
    expect(turn.diverges).toBe(false)
    const key = `${r.log}:${r.signature}`
    if (REBUILDABLE[key]) {
      // Computed from the rebuilt text: check the text independently with node's md5.
      expect(turn.detail.feedback.signatureBasis).toBe('computed')
      expect(turn.fidelity).toBe('exact')
      expect(md5sig(turn.feedback!)).toBe(r.signature)
    } else {
      // Not rebuildable: the log's own signature, never presented as computed or exact.
      expect(turn.detail.feedback.signatureBasis).toBe('recorded')
      expect(turn.fidelity).not.toBe('exact')
      expect(turn.missingInputs.some((m) => m.includes('full feedback text'))).toBe(true)
    }
  })

  it('six of them are rebuilt from the records, the rest carry the logged signature', () => {
    expect(Object.keys(REBUILDABLE)).toHaveLength(6)
    for (const key of Object.keys(REBUILDABLE)) expect(records.some((r) => `${r.log}:${r.signature}` === key)).toBe(true)
  })
})
