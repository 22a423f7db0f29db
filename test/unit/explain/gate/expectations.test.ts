import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {classifyPair} from '../../../../src/explain/gate/classify.js'
import {applyExpectation, parsePin, pinMatches, type ExpectationEntry} from '../../../../src/explain/gate/expectations.js'
import {sideOfReplay} from '../../../../src/explain/gate/side.js'
import type {GateSide} from '../../../../src/explain/gate/types.js'
import type {ReplayOutcome} from '../../../../src/replay/types.js'
import {readExpectations} from '../../../../src/services/gate/expectations-file.js'
import {UsageError} from '../../../../src/shared/errors.js'
import {replayedTurn, taskReplay} from '../helpers.js'

const sideOf = (profile: string, outcome: ReplayOutcome, turns: number, decision: 'approve' | 'feedback' = 'feedback') =>
  sideOfReplay(taskReplay(profile, outcome, Array.from({length: turns}, (_, i) => replayedTurn(i + 1, {decision: i === turns - 1 ? decision : 'feedback', criteriaMet: decision === 'approve' && i === turns - 1 ? 4 : 0}))))

const fixedStall = sideOf('fixed', {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 5}, 5)
const legacyCancel = sideOf('legacy', {kind: 'recorded-boundary', outcome: 'cancelled', turn: 18, evidence: []}, 18)
const legacyApproves = sideOf('legacy', {kind: 'replayed', outcome: 'approved', turn: 1}, 1, 'approve')

function entry(pins: Record<string, string[]>, wanted: ExpectationEntry['wanted'] = []): ExpectationEntry {
  return {file: 'corpus/expectations.yaml', key: 'db-003 / TASK-DB-003', pins, wanted, note: null}
}

describe('pins', () => {
  it('OUTCOME or OUTCOME@TURN; undetermined and not-modelled are words of their own', () => {
    expect(parsePin('unrecoverable_stall@5')).toEqual({outcome: 'unrecoverable_stall', turn: 5})
    expect(parsePin('cancelled')).toEqual({outcome: 'cancelled', turn: null})
    expect(parsePin('not_modelled')).toEqual({outcome: 'not-modelled', turn: null})
    expect(parsePin('stall at 5')).toBeNull()
    expect(parsePin('@5')).toBeNull()
  })

  it('a recorded boundary matches its word: `legacy: cancelled` matches "cancelled (recorded)"', () => {
    expect(pinMatches('cancelled', legacyCancel.side)).toBe(true)
    expect(pinMatches('cancelled@18', legacyCancel.side)).toBe(true)
    expect(pinMatches('cancelled@17', legacyCancel.side)).toBe(false)
    expect(pinMatches('unrecoverable_stall@5', fixedStall.side)).toBe(true)
    expect(pinMatches('unrecoverable_stall@4', fixedStall.side)).toBe(false)
    const undetermined: GateSide = {subject: 'x', outcome: 'undetermined after turn 3', kind: 'undetermined', endTurn: 3, stallTurn: null, fidelity: 'exact'}
    expect(pinMatches('undetermined', undetermined)).toBe(true)
    expect(pinMatches('undetermined@3', undetermined)).toBe(true)
    expect(pinMatches('approved', undetermined)).toBe(false)
  })
})

describe('expectations override the policy', () => {
  it('a candidate that meets its pin is not a regression, even where the policy says so', () => {
    // e.g. a change that wants the loop to run on to the timeout (fixed → legacy, pinned)
    const policy = classifyPair(fixedStall, legacyCancel, {failOn: []})
    expect(policy.classification).toBe('regressed')
    const {classification, expectation} = applyExpectation(policy, fixedStall.side, legacyCancel.side, entry({fixed: ['unrecoverable_stall@5'], legacy: ['cancelled']}))
    expect(classification.classification).toBe('changed')
    expect(classification.reasons.find((r) => r.rule === 'stall-missing')).toMatchObject({waived: true, note: expect.stringContaining('pins legacy to cancelled')})
    expect(classification.reasons.map((r) => r.rule)).toContain('expectation-met')
    expect(expectation.pins).toEqual([
      {role: 'baseline', subject: 'fixed', expected: 'unrecoverable_stall@5', found: 'unrecoverable_stall@5', met: true},
      {role: 'candidate', subject: 'legacy', expected: 'cancelled', found: 'cancelled (recorded)@18', met: true},
    ])
  })

  it('a candidate that misses its pin is a regression, even where the policy says improved', () => {
    const policy = classifyPair(legacyCancel, fixedStall, {failOn: []})
    expect(policy.classification).toBe('improved')
    const {classification} = applyExpectation(policy, legacyCancel.side, fixedStall.side, entry({fixed: ['unrecoverable_stall@3']}))
    expect(classification.classification).toBe('regressed')
    expect(classification.reasons[0]).toMatchObject({rule: 'expectation-unmet', message: expect.stringContaining('pins fixed to unrecoverable_stall@3; it ends unrecoverable_stall@5')})
  })

  it('pins may name the roles, and a list means any of', () => {
    const {classification} = applyExpectation(classifyPair(legacyCancel, fixedStall, {failOn: []}), legacyCancel.side, fixedStall.side, entry({candidate: ['approved', 'unrecoverable_stall']}))
    expect(classification.classification).toBe('improved')
  })

  it('wanted rules are waived for the task, the others still count', () => {
    // legacy approves where fixed stalls: an approval lost and a criterion lost … wanted: only the first
    const policy = classifyPair(legacyApproves, fixedStall, {failOn: []})
    expect(policy.reasons.map((r) => r.rule)).toEqual(expect.arrayContaining(['approval-lost', 'criterion-lost']))
    const some = applyExpectation(policy, legacyApproves.side, fixedStall.side, entry({}, ['approval-lost']))
    expect(some.classification.classification).toBe('regressed')
    expect(some.classification.reasons.filter((r) => !r.waived && r.effect === 'regression').map((r) => r.rule)).toEqual(['criterion-lost'])
    const all = applyExpectation(policy, legacyApproves.side, fixedStall.side, entry({}, 'any'))
    expect(all.classification.classification).toBe('changed')
  })

  it('a baseline that misses its pin changes nothing, but the result says so', () => {
    const policy = classifyPair(legacyCancel, fixedStall, {failOn: []})
    const {classification, expectation} = applyExpectation(policy, legacyCancel.side, fixedStall.side, entry({legacy: ['approved']}))
    expect(classification.classification).toBe('improved')
    expect(expectation.pins[0]).toMatchObject({role: 'baseline', met: false})
  })
})

describe('expectations.yaml', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-expect-'))
  const write = (text: string) => {
    const file = join(dir, `e${Math.random().toString(36).slice(2)}.yaml`)
    writeFileSync(file, text)
    return file
  }

  it('reads runs → tasks (with #attempt) → pins, wanted and note; run keys are relative to the file', async () => {
    const file = write(`runs:
  db-003-timeout:
    TASK-DB-003: {fixed: unrecoverable_stall@5, legacy: cancelled}
    TASK-DB-001#2: {fixed: [approved@1, approved@2], wanted: [approval-later], note: flaky}
  logs/db_stalled.log/:
    TASK-DB-003: {wanted: any}
`)
    const e = await readExpectations(file, dir)
    const run = e.byRun.get(join(dir, 'db-003-timeout'))!
    expect(run).toEqual([
      {taskId: 'TASK-DB-003', attempt: null, entry: expect.objectContaining({pins: {fixed: ['unrecoverable_stall@5'], legacy: ['cancelled']}, wanted: [], note: null})},
      {taskId: 'TASK-DB-001', attempt: 2, entry: expect.objectContaining({pins: {fixed: ['approved@1', 'approved@2']}, wanted: ['approval-later'], note: 'flaky'})},
    ])
    expect(e.byRun.get(join(dir, 'logs/db_stalled.log'))![0]!.entry.wanted).toBe('any')
  })

  it('a misspelt key, a bad pin or an unknown rule is a usage error naming where', async () => {
    await expect(readExpectations(write('run:\n  x: {}\n'), dir)).rejects.toThrow(UsageError)
    await expect(readExpectations(write('runs:\n  x:\n    TASK-A: {fixed: stall at 5}\n'), dir)).rejects.toThrow(/\/runs\/x\/TASK-A\/fixed: a pin is OUTCOME/)
    await expect(readExpectations(write('runs:\n  x:\n    TASK-A: {wanted: [stall-lost]}\n'), dir)).rejects.toThrow(/wanted/)
    await expect(readExpectations(write('runs:\n  x:\n    "TASK-A #2": {}\n'), dir)).rejects.toThrow(/TASK-ID#ATTEMPT/)
    await expect(readExpectations(write('runs: [\n'), dir)).rejects.toThrow(UsageError)
  })
})
