import {describe, expect, it} from 'vitest'
import {analyzeRun} from '../../../src/explain/analyze-run.js'
import {collectTaskInputs, formatReplayOutcome} from '../../../src/replay/index.js'
import {findTask, load, profile} from '../../unit/replay/helpers.js'
import {CORPUS} from '../helpers.js'

describe('the replay on real logs', () => {
  it('a run outside the modelled window is not replayed under any profile', async () => {
    const run = await load(`${CORPUS}logs/FEAT-GI.log`)
    const result = analyzeRun(run, {profiles: {kind: 'profiles', profiles: [profile('fixed')]}})
    expect(result.era.modelled).toBe(false)
    for (const t of result.tasks) {
      for (const r of Object.values(t.replays)) {
        expect(r.outcome.kind).toBe('not-modelled')
        expect(formatReplayOutcome(r.outcome)).toBe('not modelled')
        expect(r.missingInputs[0]).toContain('older than the modelled window')
      }
    }
  })

  it('rebuilds a 0/N feedback from the diagnostic dump exactly (first_task_now_fails.log turn 1)', async () => {
    const run = await load(`${CORPUS}logs/first_task_now_fails.log`)
    const inputs = collectTaskInputs(run, findTask(run, 'TASK-DB-001'))
    const t1 = inputs.turns[0]!
    expect(t1.feedback?.basis).toBe('rebuilt')
    // docs/guardkit-logic.md §8.3: "- desc:" then one "  • criterion[:100]" line per missing criterion (the dump's AC texts).
    expect(t1.feedback?.text.split('\n')).toEqual([
      '- Not all acceptance criteria met:',
      '  • `docker compose up -d db` starts PostgreSQL successfully',
      '  • SQLAlchemy engine connects to PostgreSQL via asyncpg',
      '  • `get_db()` dependency yields async session with auto-commit/rollback',
      '  • Connection pool configured with specified parameters',
      '  • Settings load DATABASE_URL from environment/.env file',
      '  (1 more)',
    ])
  })
})
