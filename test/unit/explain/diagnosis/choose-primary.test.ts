import {describe, expect, it} from 'vitest'
import {choosePrimary} from '../../../../src/explain/diagnosis/choose-primary.js'
import type {FindingDraft} from '../../../../src/explain/draft.js'
import type {FindingCode} from '../../../../src/model/finding.js'
import type {RootCause} from '../../../../src/model/root-cause.js'
import type {Stage} from '../../../../src/explain/diagnosis/stages.js'
import {fact, feedbackTurn, taskRun, turn} from '../helpers.js'
import {analyse, coachTestsRecoveredThenCoachFails, complete, sdkLimitTurn} from './authored-runs.js'

/** A finding before numbering; a LOG_SIGNAL carries its rule's stage and role in its detail. */
function d(key: string, code: FindingCode, turns: number[], o: {category?: RootCause; stage?: Stage; role?: 'cause' | 'contributing' | 'context'; severity?: FindingDraft['severity']; deduction?: string; ruleOrder?: number} = {}): FindingDraft {
  return {
    key, causeKeys: [], code, category: o.category ?? 'unknown', severity: o.severity ?? 'high', confidence: o.deduction === undefined ? 'certain' : 'inferred', taskId: 'TASK-X-1', attempt: 1, turns,
    ...(o.deduction === undefined ? {} : {deduction: o.deduction}),
    message: key, evidence: [], reproduce: '', remediation: '', fixedIn: null, source: {function: '', spec: ''},
    ...(code === 'LOG_SIGNAL' ? {detail: {ruleId: key, stage: o.stage ?? 'model-call', role: o.role ?? 'cause', ruleOrder: o.ruleOrder ?? 0}} : {}),
  }
}
const signal = (key: string, turns: number[], category: RootCause, stage: Stage, role: 'cause' | 'contributing' = 'cause') => d(key, 'LOG_SIGNAL', turns, {category, stage, role})
const failed = (n: number) => taskRun({outcome: fact('unrecoverable_stall'), turns: Array.from({length: n}, (_, i) => feedbackTurn(i + 1, '- x'))})

describe('choosing the primary cause (docs/root-causes.md)', () => {
  it('takes the earliest stage among the failures of the same turns: the model call before the report it left missing', () => {
    const chosen = choosePrimary(failed(3), [
      d('synthetic', 'SYNTHETIC_REPORT_WITHOUT_PROMISES', [1, 2, 3], {category: 'agent-report'}),
      signal('auth', [1, 2, 3], 'model-api', 'model-call'),
      d('zero', 'ZERO_OF_N_TEXT_MATCH_EMPTY', [1, 2, 3], {category: 'criteria-matching'}),
    ])
    expect(chosen?.primaryKey).toBe('auth')
    expect(chosen?.reasons).toEqual([
      'auth (model-api) before SYNTHETIC_REPORT_WITHOUT_PROMISES (agent-report): it is the earliest failure on 3 of the 3 failing turns, the other on 0 (it shows only on turns where something earlier in the turn had already failed, or on none that failed)',
      'auth (model-api) before ZERO_OF_N_TEXT_MATCH_EMPTY (criteria-matching): it is the earliest failure on 3 of the 3 failing turns, the other on 0 (it shows only on turns where something earlier in the turn had already failed, or on none that failed)',
    ])
  })

  it('prefers the error that is the earliest failure on more failing turns to an earlier stage on fewer', () => {
    // five turns lost their promises between Player and Coach, three timed out first
    const chosen = choosePrimary(failed(8), [
      signal('lost', [1, 3, 6, 7, 8], 'pipeline-data-loss', 'pipeline'),
      d('timeout', 'PLAYER_TIMEOUT', [2, 4, 5], {category: 'agent-budget'}),
      d('zero', 'ZERO_OF_N_TEXT_MATCH_EMPTY', [1, 2, 3, 4, 5, 6, 7, 8], {category: 'criteria-matching'}),
    ])
    expect(chosen?.primaryKey).toBe('lost')
    expect(chosen?.contributing).toEqual([{category: 'agent-budget', keys: ['timeout']}, {category: 'criteria-matching', keys: ['zero']}])
  })

  it('never takes an outcome or a contributing cause: with none that can be a cause, none', () => {
    expect(choosePrimary(failed(3), [
      d('stall', 'STALL_FIRED', [3], {category: 'loop-control'}),
      d('ended', 'ENDED_BY_TIMEOUT_NOT_STALL', [3], {category: 'timeout'}),
      signal('graph', [1, 2], 'external-service', 'setup', 'contributing'),
    ])).toBeNull()
  })

  it('on a tie, takes the one that ended the task, then the one that came first', () => {
    const task = taskRun({outcome: fact('error'), turns: [feedbackTurn(1, '- x'), turn(2, {coach: {decision: fact('error' as const)}})]})
    expect(choosePrimary(task, [signal('early', [1], 'code-defect', 'coach-tests'), signal('late', [2], 'model-api', 'model-call')])?.primaryKey).toBe('late')
    const stalled = taskRun({outcome: fact('cancelled'), turns: [feedbackTurn(1, '- x'), feedbackTurn(2, '- x'), feedbackTurn(3, '- x')]})
    expect(choosePrimary(stalled, [signal('b', [2], 'agent-budget', 'player-agent'), signal('a', [1], 'agent-report', 'player-report')])?.primaryKey).toBe('a')
  })

  it('at the same stage of a turn, takes what a record states before what is inferred from a shape', () => {
    // a test run that failed in seconds (inferred: an environment failure) and a message naming a port two parallel tasks shared
    const fast = d('fast', 'LOG_SIGNAL', [1, 2, 3], {category: 'test-environment', stage: 'coach-tests', deduction: 'a fast failure is an import error', ruleOrder: 1})
    const port = d('port', 'LOG_SIGNAL', [1, 2, 3], {category: 'concurrency', stage: 'coach-tests', ruleOrder: 2})
    expect(choosePrimary(failed(3), [fast, port])?.primaryKey).toBe('port')
    // an earlier stage still comes first, inferred or not
    const budget = d('budget', 'LOG_SIGNAL', [1, 2, 3], {category: 'agent-budget', stage: 'player-agent', deduction: 'the session used every SDK turn', ruleOrder: 3})
    expect(choosePrimary(failed(3), [port, budget])?.primaryKey).toBe('budget')
  })

  it('takes sub-bullets counted as criteria for the cause when nothing earlier in the turns failed (criteria-parsing)', () => {
    const chosen = choosePrimary(failed(5), [
      d('inflated', 'CRITERIA_COUNT_INFLATED', [1, 2, 3, 4, 5], {category: 'criteria-parsing', severity: 'medium'}),
      d('stall', 'STALL_FIRED', [1, 2, 3, 4, 5], {category: 'loop-control'}),
    ])
    expect(chosen?.primaryKey).toBe('inflated')
  })

  it('counts the turn the Coach approved as failing when a stopping rule still ended the task on it', () => {
    const task = taskRun({outcome: fact('unrecoverable_stall'), turns: [feedbackTurn(1, '- x'), turn(2, {coach: {decision: fact('approve' as const)}})]})
    const chosen = choosePrimary(task, [signal('gate', [1], 'quality-gate', 'gates'), d('overridden', 'APPROVAL_OVERRIDDEN', [2], {category: 'loop-control', severity: 'critical'})])
    expect(chosen?.primaryKey).toBe('overridden')
    expect(chosen?.failingTurns).toEqual([1, 2])
  })

  it('reads a finding about the whole task (no turns) as showing on every failing turn', () => {
    const chosen = choosePrimary(failed(2), [signal('setup', [], 'configuration', 'setup'), signal('model', [1, 2], 'model-api', 'model-call')])
    expect(chosen?.primaryKey).toBe('setup')
  })

  describe('the quoted line of a failure its turn recovered from', () => {
    it('quotes the failure that ended the turn, not the Coach test run that fell back to a subprocess and passed', () => {
      const {task} = analyse([...coachTestsRecoveredThenCoachFails(1), complete('error', 1)])
      const first = task.diagnosis?.primary.evidence[0]?.text ?? ''
      expect(first).toMatch(/SDK invocation failed for coach\b/)
      expect(task.diagnosis?.primary.summary).not.toMatch(/role='coach_test'/)
    })
  })

  describe('a Player session that used every SDK turn it was given (Max turns: N, then SDK completed: turns=N)', () => {
    it('is the cause when the turn shows what the session never reached: the tests gate had no result', () => {
      const {task} = analyse([...sdkLimitTurn(1, {limit: 50, used: 50}), ...sdkLimitTurn(2, {limit: 50, used: 50}), complete('unrecoverable_stall', 2)])
      expect(task.diagnosis).toMatchObject({primary: {category: 'agent-budget'}, confidence: 'inferred'})
      expect(task.diagnosis?.primary.summary).toMatch(/stopped at its SDK turn limit before its tests/)
    })

    it('is not, when the session stopped short of its limit: the gate with no result is what the records say', () => {
      const {task} = analyse([...sdkLimitTurn(1, {limit: 100, used: 50}), ...sdkLimitTurn(2, {limit: 100, used: 50}), complete('unrecoverable_stall', 2)])
      expect(task.diagnosis?.primary.category).toBe('configuration')
      expect(task.diagnosis?.contributing.map((c) => c.category)).not.toContain('agent-budget')
    })

    it('is not, when the SDK counted more turns than the limit: a count above it does not show where the session stopped', () => {
      const {task} = analyse([...sdkLimitTurn(1, {limit: 50, used: 61}), ...sdkLimitTurn(2, {limit: 50, used: 61}), complete('unrecoverable_stall', 2)])
      expect(task.diagnosis?.primary.category).toBe('configuration')
      expect(task.diagnosis?.contributing.map((c) => c.category)).not.toContain('agent-budget')
      expect(task.findings.map((f) => f.message).join('\n')).not.toMatch(/SDK turn limit|used every SDK turn/)
    })

    it('reads an equal count as the limit stopping the session (inferred: no record says so)', () => {
      const {task} = analyse([...sdkLimitTurn(1, {limit: 50, used: 50, coachEnv: true}), ...sdkLimitTurn(2, {limit: 50, used: 50, coachEnv: true}), complete('unrecoverable_stall', 2)])
      const budget = task.findings.find((f) => f.category === 'agent-budget')
      expect(budget?.confidence).toBe('inferred')
    })

    it('only contributes when the turn failed for a reason of its own (the Coach\'s environment)', () => {
      const {task} = analyse([...sdkLimitTurn(1, {limit: 50, used: 50, coachEnv: true}), ...sdkLimitTurn(2, {limit: 50, used: 50, coachEnv: true}), complete('unrecoverable_stall', 2)])
      expect(task.diagnosis?.primary.category).toBe('test-environment')
      expect(task.diagnosis?.contributing.map((c) => c.category)).toContain('agent-budget')
    })
  })
})
