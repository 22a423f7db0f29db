import {describe, expect, it} from 'vitest'
import {classifyPair} from '../../../../src/explain/gate/classify.js'
import {sideOfRecord, sideOfReplay} from '../../../../src/explain/gate/side.js'
import {summariseGate} from '../../../../src/explain/gate/summarise.js'
import {gateTask as gateOneTask} from '../../../../src/explain/gate/gate-task.js'
import type {TaskAnalysis} from '../../../../src/explain/analysis.js'
import type {FailOn, GateRule} from '../../../../src/explain/gate/types.js'
import {builtinProfile, type Profile} from '../../../../src/logic/profiles.js'
import type {ReplayOutcome} from '../../../../src/replay/types.js'
import {eraOf, fact, feedbackTurn, replayedTurn, taskReplay, taskRun, turn} from '../helpers.js'

// Hand-built pairs of replays: each case is what the policy in docs/ci.md says, not what the code did.

type T = [decision: 'approve' | 'feedback' | 'error' | null, met: number | null, total: number | null, extra?: {sig?: string; fidelity?: 'exact' | 'approximate' | 'insufficient'; stall?: boolean; inferred?: boolean; feedback?: string}]

function side(profile: string, outcome: ReplayOutcome, turns: T[], stallTurn: number | null = null) {
  const replayed = turns.map(([decision, met, total, extra = {}], i) =>
    replayedTurn(i + 1, {
      decision,
      criteriaMet: met,
      criteriaTotal: total,
      signature: extra.sig ?? null,
      fidelity: extra.fidelity ?? 'exact',
      confidence: extra.inferred ? 'inferred' : 'recorded',
      feedback: extra.feedback ?? null,
      stall: extra.stall ? {signature: extra.sig ?? 'x', rawSignature: 'x', normalisedSignature: 'x', count: 0, window: [], threshold: 3, fired: true, reason: 'fired'} : null,
    }),
  )
  return sideOfReplay(taskReplay(profile, outcome, replayed, stallTurn))
}

const approved = (turn: number): ReplayOutcome => ({kind: 'replayed', outcome: 'approved', turn})
const stalled = (turn: number): ReplayOutcome => ({kind: 'replayed', outcome: 'unrecoverable_stall', turn})
const maxTurns = (turn: number): ReplayOutcome => ({kind: 'replayed', outcome: 'max_turns_exceeded', turn})
const crashed = (turn: number): ReplayOutcome => ({kind: 'replayed', outcome: 'error', turn})
const cancelled = (turn: number): ReplayOutcome => ({kind: 'recorded-boundary', outcome: 'cancelled', turn, evidence: []})
const undetermined = (afterTurn: number): ReplayOutcome => ({kind: 'undetermined', afterTurn})

const policy = (...failOn: FailOn[]) => ({failOn})
const rules = (r: {reasons: readonly {rule: GateRule; waived?: boolean}[]}) => r.reasons.filter((x) => !x.waived).map((x) => x.rule)

const fb = (met: number, total = 6): T => ['feedback', met, total]
const ok = (total = 6): T => ['approve', total, total]

describe('gate policy: regressions', () => {
  it('an approval lost is a regression (and the criteria it no longer verifies)', () => {
    const r = classifyPair(side('fixed', approved(1), [ok()]), side('legacy', stalled(3), [fb(0), fb(0), fb(0)]), policy())
    expect(r.classification).toBe('regressed')
    expect(rules(r)).toEqual(expect.arrayContaining(['approval-lost', 'criterion-lost']))
    expect(r.reasons.find((x) => x.rule === 'approval-lost')).toMatchObject({turn: 1, effect: 'regression'})
  })

  it('an approval that comes later is a regression; earlier is an improvement', () => {
    const early = side('a', approved(1), [ok()])
    const late = side('b', approved(3), [fb(4), fb(5), ok()])
    expect(rules(classifyPair(early, late, policy()))).toContain('approval-later')
    expect(classifyPair(early, late, policy()).classification).toBe('regressed')
    const back = classifyPair(late, early, policy())
    expect(back.classification).toBe('improved')
    expect(rules(back)).toContain('approval-earlier')
  })

  it('a stall caught later is a regression, earlier an improvement', () => {
    const at3 = side('a', stalled(3), [fb(0), fb(0), fb(0)], 3)
    const at5 = side('b', stalled(5), [fb(0), fb(0), fb(0), fb(0), fb(0)], 5)
    expect(classifyPair(at3, at5, policy())).toMatchObject({classification: 'regressed'})
    expect(rules(classifyPair(at3, at5, policy()))).toEqual(['stall-later'])
    expect(classifyPair(at5, at3, policy())).toMatchObject({classification: 'improved'})
    expect(rules(classifyPair(at5, at3, policy()))).toEqual(['stall-earlier'])
  })

  it('a stall missing (the loop runs on to a timeout, max turns or the end of the record) is a regression', () => {
    const stall = side('fixed', stalled(5), Array.from({length: 5}, () => fb(0)), 5)
    for (const other of [
      side('legacy', cancelled(18), Array.from({length: 18}, () => fb(0))),
      side('legacy', maxTurns(25), Array.from({length: 25}, () => fb(0))),
      side('legacy', undetermined(7), Array.from({length: 7}, () => fb(0))),
    ]) {
      const r = classifyPair(stall, other, policy())
      expect(r.classification).toBe('regressed')
      expect(rules(r)).toEqual(['stall-missing'])
      expect(r.reasons[0]).toMatchObject({turn: 5})
    }
  })

  it('a criterion that no longer verifies on a turn both sides replay is a regression', () => {
    const r = classifyPair(side('a', maxTurns(2), [fb(3), fb(4)]), side('b', maxTurns(2), [fb(3), fb(2)]), policy())
    expect(r.classification).toBe('regressed')
    expect(r.reasons[0]).toMatchObject({rule: 'criterion-lost', turn: 2})
  })

  const approving = (criteria: unknown[], met = 2, total = 2) =>
    sideOfReplay(taskReplay('b', approved(1), [
      replayedTurn(1, {decision: 'approve', criteriaMet: met, criteriaTotal: total, detail: {coach: {...replayedTurn(1).detail.coach, requirements: {strategy: 'text', criteria}}}}),
    ]))

  it('a false approval is a regression: the Coach approves although its own requirements check rejected a criterion', () => {
    const candidate = approving([{criterion_id: 'AC-001', verdict: 'verified', decidedBy: 'promise'}, {criterion_id: 'AC-002', verdict: 'rejected', decidedBy: 'promise'}], 1, 2)
    const r = classifyPair(side('a', stalled(3), [fb(1, 2), fb(1, 2), fb(1, 2)], 3), candidate, policy())
    expect(r.classification).toBe('regressed')
    expect(rules(r)).toContain('false-approval')
    expect(rules(r)).not.toContain('approval-gained')
    expect(r.reasons.find((x) => x.rule === 'false-approval')!.message).toContain('rejected AC-002')
  })

  it('an approval with criteria pending (not evaluated, as some eras\' Coaches do) is not called false', () => {
    const r = classifyPair(side('a', undetermined(1), [fb(0)]), side('b', approved(1), [['approve', 0, 6]]), policy())
    expect(r.classification).toBe('improved')
    expect(rules(r)).toContain('approval-gained')
  })

  it('a false approval is a regression: a criterion verified by a substring match with an empty requirement', () => {
    const candidate = approving([{criterion_id: 'AC-002', verdict: 'verified', decidedBy: 'text-substring', text_match: {matched: ''}}])
    const r = classifyPair(side('a', undetermined(1), [fb(1, 2)]), candidate, policy())
    expect(rules(r)).toContain('false-approval')
    expect(r.reasons.find((x) => x.rule === 'false-approval')!.message).toContain('AC-002')
  })

  it('a new error is a regression, a fixed one an improvement', () => {
    expect(rules(classifyPair(side('a', maxTurns(3), [fb(1), fb(1), fb(1)]), side('b', crashed(2), [fb(1), ['error', null, null]]), policy()))).toContain('new-error')
    const back = classifyPair(side('b', crashed(2), [fb(1), ['error', null, null]]), side('a', maxTurns(3), [fb(1), fb(1), fb(1)]), policy())
    expect(back.classification).toBe('improved')
    expect(rules(back)).toContain('error-fixed')
  })
})

describe('gate policy: improvements', () => {
  it('a correct task now approved is an improvement', () => {
    const r = classifyPair(side('legacy', stalled(3), [fb(0), fb(0), fb(0)], 3), side('fixed', approved(1), [ok()]), policy())
    expect(r.classification).toBe('improved')
    expect(rules(r)).toEqual(expect.arrayContaining(['approval-gained', 'criteria-gained']))
  })

  it('a stall now caught where the loop ran to a timeout is an improvement (seed 002)', () => {
    const r = classifyPair(side('legacy', cancelled(18), Array.from({length: 18}, () => fb(0))), side('fixed', stalled(5), Array.from({length: 5}, () => fb(0)), 5), policy())
    expect(r.classification).toBe('improved')
    expect(rules(r)).toEqual(['stall-caught'])
  })
})

describe('gate policy: undetermined, approximate, not modelled', () => {
  it('"undetermined after turn N" is a fact about turns 1…N: an approval at or before N is lost', () => {
    const r = classifyPair(side('fixed', approved(1), [ok()]), side('legacy', undetermined(1), [fb(0)]), policy())
    expect(r.classification).toBe('regressed')
    expect(rules(r)).toContain('approval-lost')
  })

  it('beyond N nothing is claimed: a baseline approval after the candidate\'s last turn is "now undetermined" (changed)', () => {
    const r = classifyPair(side('a', approved(3), [fb(1), fb(2), ok()]), side('b', undetermined(2), [fb(1), fb(2), ['feedback', null, null, {fidelity: 'insufficient'}]]), policy())
    expect(r.classification).toBe('changed')
    expect(rules(r)).toEqual(['became-undetermined'])
  })

  it('two undetermined sides that stop at different turns are not a verdict change', () => {
    const r = classifyPair(side('a', undetermined(2), [fb(1), fb(2)]), side('b', undetermined(1), [fb(1), ['feedback', null, null, {fidelity: 'insufficient'}]]), policy())
    expect(r.classification).toBe('unchanged')
  })

  it('--fail-on undetermined makes that a regression', () => {
    const r = classifyPair(side('a', approved(3), [fb(1), fb(2), ok()]), side('b', undetermined(2), [fb(1), fb(2)]), policy('undetermined'))
    expect(r.classification).toBe('regressed')
    expect(r.reasons[0]).toMatchObject({rule: 'became-undetermined', effect: 'regression', note: expect.stringContaining('--fail-on undetermined')})
  })

  it('approximate values count as they are, and the class says it rests on them', () => {
    const r = classifyPair(side('fixed', approved(1), [['approve', 6, 6, {fidelity: 'approximate'}]]), side('legacy', stalled(3), [fb(0), fb(0), fb(0)], 3), policy())
    expect(r.classification).toBe('regressed')
    expect(r.approximate).toBe(true)
    const exact = classifyPair(side('fixed', approved(1), [ok()]), side('legacy', stalled(3), [fb(0), fb(0), fb(0)], 3), policy())
    expect(exact.approximate).toBe(false)
  })

  it('inferred turns (after an earlier feedback difference) make a turn rule approximate', () => {
    const r = classifyPair(side('a', maxTurns(2), [fb(3), fb(4)]), side('b', maxTurns(2), [fb(3), ['feedback', 2, 6, {inferred: true}]]), policy())
    expect(r.reasons[0]).toMatchObject({rule: 'criterion-lost', approximate: true})
  })

  it('a drop in fidelity alone is a note, not a change; --fail-on approximate makes it a regression', () => {
    const exact = side('a', approved(1), [ok()])
    const approx = side('b', approved(1), [['approve', 6, 6, {fidelity: 'approximate'}]])
    const r = classifyPair(exact, approx, policy())
    expect(r.classification).toBe('unchanged')
    expect(r.reasons).toEqual([expect.objectContaining({rule: 'fidelity-dropped', effect: 'note'})])
    expect(classifyPair(exact, approx, policy('approximate')).classification).toBe('regressed')
  })

  it('a run outside the modelled window is skipped, with the reason', () => {
    const notModelled = sideOfReplay(taskReplay('legacy', {kind: 'not-modelled', reason: 'older than f86b1bf9'}, []))
    const r = classifyPair(notModelled, side('fixed', approved(1), [ok()]), policy())
    expect(r).toMatchObject({classification: 'skipped', reasons: []})
    expect(r.skipReason).toContain('not modelled')
  })

  it('the same verdicts turn by turn are unchanged; other feedback or signatures are a change', () => {
    const a = side('a', stalled(3), [['feedback', 0, 6, {sig: 'aaaaaaaa', feedback: 'x'}], ['feedback', 0, 6, {sig: 'aaaaaaaa', feedback: 'x'}], ['feedback', 0, 6, {sig: 'aaaaaaaa', feedback: 'x', stall: true}]], 3)
    expect(classifyPair(a, a, policy())).toMatchObject({classification: 'unchanged', reasons: []})
    const b = side('b', stalled(3), [['feedback', 0, 6, {sig: 'bbbbbbbb', feedback: 'y'}], ['feedback', 0, 6, {sig: 'bbbbbbbb', feedback: 'y'}], ['feedback', 0, 6, {sig: 'bbbbbbbb', feedback: 'y', stall: true}]], 3)
    const r = classifyPair(a, b, policy())
    expect(r.classification).toBe('changed')
    expect(rules(r)).toEqual(['feedback-changed', 'signature-changed'])
  })

  it('a log excerpt of the feedback agrees with the full text it starts', () => {
    const full = 'Independent test verification failed: 1 failed in 1.73s and a much longer tail of pytest output'
    const a = side('a', maxTurns(1), [['feedback', 0, 6, {feedback: full}]])
    const record = sideOfRecord(taskRun({turns: [feedbackTurn(1, full.slice(0, 40), 0, 6)], outcome: fact('max_turns_exceeded')}))
    const trimmed = {...record, cells: new Map([...record.cells].map(([k, v]) => [k, {...v, feedbackComplete: false}]))}
    expect(rules(classifyPair(trimmed, a, policy()))).not.toContain('feedback-changed')
  })
})

describe('gate policy: the recorded side', () => {
  it('recorded is GuardKit\'s own outcome: a recorded stall that the candidate approves is an improvement', () => {
    const task = taskRun({
      turns: [feedbackTurn(1, 'f', 0, 10), feedbackTurn(2, 'f', 0, 10), feedbackTurn(3, 'f', 0, 10)],
      outcome: fact('unrecoverable_stall'),
      stall: {kind: 'feedback', turn: 3, signature: 'bbaba24c', windowTurns: 3, criteriaPassing: 0, extended: false, errorText: null, evidence: []},
    })
    const recorded = sideOfRecord(task)
    expect(recorded.side).toMatchObject({subject: 'recorded', outcome: 'unrecoverable_stall', kind: 'stalled', endTurn: 3, stallTurn: 3, fidelity: 'exact'})
    const r = classifyPair(recorded, side('fixed', approved(1), [ok()]), policy())
    expect(r.classification).toBe('improved')
    expect(rules(r)).toContain('approval-gained')
  })

  it('a record that ends without an outcome reads as undetermined after its last turn; a cancellation as a boundary', () => {
    expect(sideOfRecord(taskRun({turns: [turn(1), turn(2)]})).side).toMatchObject({kind: 'undetermined', outcome: 'undetermined after turn 2', endTurn: 2})
    expect(sideOfRecord(taskRun({turns: [turn(1)], outcome: fact('cancelled')})).side).toMatchObject({kind: 'boundary', endTurn: 1})
  })
})

describe('gate policy: changes, precedence and the horizon', () => {
  it('another outcome with no rule of its own (max turns vs a recorded cancellation) is a change', () => {
    const r = classifyPair(side('a', maxTurns(3), [fb(2), fb(2), fb(2)]), side('b', cancelled(3), [fb(2), fb(2), fb(2)]), policy())
    expect(r.classification).toBe('changed')
    expect(rules(r)).toEqual(['outcome-changed'])
  })

  it('a turn\'s decision or the number of criteria differing, with nothing verified more or less, is a change', () => {
    const decision = classifyPair(side('a', maxTurns(2), [fb(2), fb(2)]), side('b', maxTurns(2), [['error', 2, 6], fb(2)]), policy())
    expect(decision.classification).toBe('changed')
    expect(decision.reasons).toEqual([expect.objectContaining({rule: 'decision-changed', effect: 'change', turn: 1})])
    const total = classifyPair(side('a', maxTurns(1), [fb(2, 6)]), side('b', maxTurns(1), [fb(2, 7)]), policy())
    expect(total.classification).toBe('changed')
    expect(total.reasons).toEqual([expect.objectContaining({rule: 'criteria-total-changed', turn: 1})])
  })

  it('each rule fires once per task, at the first turn it applies to', () => {
    const r = classifyPair(side('a', maxTurns(3), [fb(3), fb(4), fb(5)]), side('b', maxTurns(3), [fb(3), fb(1), fb(0)]), policy())
    expect(r.reasons).toEqual([expect.objectContaining({rule: 'criterion-lost', turn: 2})])
  })

  it('any regression outranks every improvement, and every rule that fired is still listed, regressions first', () => {
    // the candidate verifies more at turn 1 but never approves where the baseline did at turn 2
    const r = classifyPair(side('a', approved(2), [fb(2), ok()]), side('b', maxTurns(2), [fb(4), fb(4)]), policy())
    expect(r.classification).toBe('regressed')
    expect(r.reasons.map((x) => [x.rule, x.effect])).toEqual(expect.arrayContaining([['approval-lost', 'regression'], ['criteria-gained', 'improvement']]))
    const effects = r.reasons.map((x) => x.effect)
    expect(effects.lastIndexOf('regression')).toBeLessThan(effects.indexOf('improvement'))
  })

  it('a stall missing is claimed only up to the candidate\'s last covered turn: at N it is missing, after N undetermined', () => {
    const stall5 = side('fixed', stalled(5), Array.from({length: 5}, () => fb(0)), 5)
    const upTo5 = classifyPair(stall5, side('legacy', undetermined(5), Array.from({length: 5}, () => fb(0))), policy())
    expect(upTo5.classification).toBe('regressed')
    expect(rules(upTo5)).toEqual(['stall-missing'])
    const upTo4 = classifyPair(stall5, side('legacy', undetermined(4), Array.from({length: 4}, () => fb(0))), policy())
    expect(upTo4.classification).toBe('changed')
    expect(rules(upTo4)).toEqual(['became-undetermined'])
  })

  it('a stall is "caught" only where the baseline is known to have run on past it', () => {
    // the baseline's records end at turn 3: whether it would have stopped at 5 is not known
    const r = classifyPair(side('legacy', undetermined(3), [fb(0), fb(0), fb(0)]), side('fixed', stalled(5), Array.from({length: 5}, () => fb(0)), 5), policy())
    expect(rules(r)).not.toContain('stall-caught')
    expect(r.classification).toBe('changed')
  })
})

describe('gate verdict: what counts against it', () => {
  // one task, replayed by hand: legacy and fixed differ only in the number of criteria (a change)
  const legacy = builtinProfile('legacy')!
  const fixed = builtinProfile('fixed')!
  const task = taskRun({turns: [feedbackTurn(1, 'f', 2, 6)], outcome: fact('max_turns_exceeded')})
  const replay = (p: Profile) => taskReplay(p.name, maxTurns(1), [replayedTurn(1, {decision: 'feedback', criteriaMet: 2, criteriaTotal: p.name === 'fixed' ? 7 : 6})])
  const analysed = (profiles: Profile[]): TaskAnalysis => ({
    task,
    replays: Object.fromEntries(profiles.map((p) => [p.name, replay(p)])),
    findings: [],
    diagnosis: null,
    verdict: {happened: '', why: '', underProfiles: [], waste: null, doNow: [], fixedIn: [], notFixed: [], ok: false},
    whatif: null,
  })
  const gateOne = (...failOn: FailOn[]) =>
    gateOneTask({analysis: analysed([legacy, fixed]), runPath: 'run.log', era: eraOf('legacy'), baseline: {kind: 'profile', profile: legacy}, candidate: {kind: 'profile', profile: fixed}, policy: policy(...failOn), expectation: null, asRunFlags: legacy.flags})

  it('a changed task does not fail the gate; under --fail-on changed it does', () => {
    const loose = gateOne()
    expect(loose).toMatchObject({classification: 'changed', failing: false})
    expect(summariseGate([{skipReason: null, tasks: [loose]}], policy()).verdict).toBe('pass')
    const strict = gateOne('changed')
    expect(strict).toMatchObject({classification: 'changed', failing: true})
    expect(summariseGate([{skipReason: null, tasks: [strict]}], policy('changed'))).toMatchObject({verdict: 'fail', summary: {changed: 1, failing: 1}})
  })

  it('a run that could not be read fails the gate only under --fail-on skipped', () => {
    const unreadable = {skipReason: 'nothing recognisable', tasks: []}
    expect(summariseGate([unreadable], policy()).verdict).toBe('pass')
    expect(summariseGate([unreadable], policy('skipped'))).toMatchObject({verdict: 'fail', summary: {failing: 1}})
  })
})
