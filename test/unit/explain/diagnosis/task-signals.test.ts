import {describe, expect, it} from 'vitest'
import {builtinCatalogue} from '../../../../src/explain/diagnosis/catalogue/builtin.js'
import {classifyAll} from '../../../../src/explain/diagnosis/task-signals.js'
import type {Signal} from '../../../../src/model/signal.js'

/** The same words mean the Coach's own test run, or the state recovery's test detection (docs/ingest.md "Signals"). */
const TIMED_OUT: Signal = {
  source: 'record', level: 'ERROR', logger: 'guardkit.orchestrator.coach_verification', text: 'Test execution timed out after 120s', turn: 1,
  evidence: {file: 'run.log', line: 40, text: 'Test execution timed out after 120s'}, repeats: 0,
}

describe('a record logged during state recovery is not read as a step of the Coach', () => {
  it('outside recovery, the timed-out test run is the Coach\'s own', () => {
    const [rule] = classifyAll([TIMED_OUT], builtinCatalogue())
    expect(rule?.stage).toBe('coach-tests')
  })

  it('during recovery, no rule of a Coach stage takes it: nothing says the Coach judged the turn without its tests', () => {
    const [rule] = classifyAll([{...TIMED_OUT, during: 'state-recovery'}], builtinCatalogue())
    expect(rule === null || !['coach', 'criteria', 'coach-tests', 'gates'].includes(rule!.stage)).toBe(true)
  })
})
