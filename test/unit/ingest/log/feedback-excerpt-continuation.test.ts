import {describe, expect, it} from 'vitest'
import {classifyConsole} from '../../../../src/ingest/log/console-grammar.js'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'

/**
 * db_another_fail.log:340-345: the 80-code-point feedback excerpt (docs/guardkit-logic.md §8.2 step 8) ends inside
 * pytest's `=====` banner after a blank line. That line is the excerpt's end, not a console rule: the
 * feedback is truncated, not the 56 code points before the blank line.
 */
const LINES = [
  'INFO:guardkit.orchestrator.autobuild:Using CoachValidator for TASK-DB-003 turn 1',
  'INFO:guardkit.orchestrator.quality_gates.coach_validator:Starting Coach validation for TASK-DB-003 turn 1',
  '  ⚠ Feedback: - Independent test verification failed:',
  '  Error detail:',
  '',
  '=======================...',
  'INFO:guardkit.orchestrator.progress:Completed turn 1: feedback - Feedback: - Independent test verification failed:',
  '  Error detail:',
  '',
  '=======================...',
  'INFO:guardkit.orchestrator.autobuild:Criteria Progress (Turn 1): 0/6 verified (0%)',
]

describe('a feedback excerpt cut inside a ===== banner', () => {
  it('is a continuation line, not a rule', () => {
    expect(classifyConsole('=======================...').start).toBe(false)
    expect(classifyConsole('======================= 3 passed in 0.1s =======================').event).toMatchObject({kind: 'c-other', name: 'rule'})
  })

  it('keeps the feedback truncated at 80 code points', () => {
    const ingest = createLogIngest()
    ingest.startFile('run.log')
    ingest.pushBytes(new TextEncoder().encode(`${LINES.join('\n')}\n`))
    ingest.endFile()
    const feedback = ingest.finish().tasks.flatMap((t) => t.turns).find((t) => t.turn === 1)?.coach.feedback
    expect(feedback?.completeness).toBe('truncated')
    expect(feedback?.text).toBe(`- Independent test verification failed:\n  Error detail:\n\n${'='.repeat(23)}`)
  })
})
