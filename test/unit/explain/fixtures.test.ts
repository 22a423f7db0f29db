import {readdirSync, readFileSync, existsSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {parse} from 'yaml'
import {detectTaskFindings} from '../../../src/explain/detect-findings.js'
import {FIXTURES, familyInput, loadFixture} from './helpers.js'

/**
 * The authored fixtures' expected.yaml pin which codes must and must not appear per task (derived
 * by hand in each README). These run the finding families on the record alone: every code except
 * the two that need a replay (FIXED_STILL_FAILS, REPLAY_DIVERGES_FROM_RECORD) must already follow.
 */
const NEEDS_REPLAY = new Set(['FIXED_STILL_FAILS', 'REPLAY_DIVERGES_FROM_RECORD'])

interface Expected {
  tasks?: {taskId: string; attempt?: number; findings?: {present?: {code: string; turns: number[]}[]; absent?: string[]}}[]
}

const fixtures = readdirSync(FIXTURES).filter((d) => existsSync(join(FIXTURES, d, 'expected.yaml')))

describe.each(fixtures)('fixture %s', (name) => {
  const expected = parse(readFileSync(join(FIXTURES, name, 'expected.yaml'), 'utf8')) as Expected
  const tasks = (expected.tasks ?? []).filter((t) => t.findings)
  it.each(tasks.map((t) => [t.taskId, t] as const))('%s: present and absent codes', async (_id, exp) => {
    const run = await loadFixture(name)
    const task = run.tasks.find((t) => t.taskId === exp.taskId && t.attempt === (exp.attempt ?? 1))
    expect(task, `${exp.taskId} in ${name}`).toBeDefined()
    const findings = detectTaskFindings(familyInput(run, task!))
    for (const p of exp.findings!.present ?? []) {
      if (NEEDS_REPLAY.has(p.code)) continue
      const f = findings.find((x) => x.code === p.code)
      expect(f, `${p.code} present for ${exp.taskId}`).toBeDefined()
      for (const t of p.turns) expect(f!.turns, `${p.code} covers turn ${t}`).toContain(t)
    }
    for (const code of exp.findings!.absent ?? []) {
      expect(findings.map((f) => f.code), `${code} absent for ${exp.taskId}`).not.toContain(code)
    }
  })
})
