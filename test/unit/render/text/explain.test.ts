import {describe, expect, it} from 'vitest'
import {renderExplainText} from '../../../../src/render/text/explain.js'
import {renderTextDiff} from '../../../../src/render/text/feedback-diff.js'
import {createPalette, PLAIN} from '../../../../src/render/text/palette.js'
import {renderWhatIfText} from '../../../../src/render/text/whatif.js'
import {db003Report, zeroOfNReport} from '../analysis-builders.js'

describe('explain as text', () => {
  const report = zeroOfNReport()
  const view = {task: report.tasks[0]!, turn: null, profiles: ['legacy', 'fixed']}
  const out = renderExplainText(report, view)

  it('dumps every criterion per profile: strategy, decider, data seen, closest requirement and score, pipeline loss', () => {
    expect(out.replace(/\s+/g, ' ')).toContain('strategy text · promises from nowhere (no completion_promises in task_work_results.json or player_turn_1.json) · requirements_met = [] · 0/N dump logged')
    expect(out).toMatch(/ 1 AC-001 +✗ rejected {2}decided by text-none\n +“Users can log in with email and password”\n +data: requirements_met = \[\] \(empty\) · rules acr\n +lost at AgentInvoker\._write_player_report \(overwritten completion_promises\)/)
    expect(out).toMatch(/ 1 AC-001 +✓ verified {2}decided by promise-complete\n.*\n +data: promise status "complete"/)
    expect(out).toMatch(/closest: “hash passwords” jaccard 0\.50 \(rule: exact, substring or ≥ 0\.70\), below the\n +rule/)
    expect(out).toMatch(/• AgentInvoker\._write_player_report overwritten completion_promises: the agent-written\n +report held 2 promises/)
  })

  it('shows GuardKit’s 0/N dump as recorded and as rebuilt, each labelled', () => {
    expect(out).toContain("GuardKit's 0/N dump, as recorded (run.log:88)\n      Criteria verification 0/2 - diagnostic dump:\n        AC text: Users can log in with email and password")
    expect(out).toContain("GuardKit's 0/N dump, rebuilt by the model under this profile\n      Criteria verification 0/2 - diagnostic dump:")
  })

  it('diffs the replayed feedback against the record, and profile against profile', () => {
    expect(out).toContain('recorded → replayed\n        - Not all acceptance criteria met:\n      -   • Users can log in with email and password\n          • Passwords are hashed with bcrypt')
    expect(out).toContain('feedback, legacy → fixed')
    expect(out).toMatch(/differs +criteriaMet: recorded 0 → replayed 1 \(run\.log:84\)/)
  })

  it('for one turn: signatures per profile, the window and why the detector fired or not', () => {
    const db = db003Report()
    const turn5 = renderExplainText(db, {task: db.tasks[2]!, turn: 5, profiles: ['legacy', 'fixed']})
    expect(turn5).toContain('explain TASK-DB-003 turn 5 · fixtures/runs/db-003-timeout')
    expect(turn5).toMatch(/stall +count fed 0 · window \[t3 deaab5ff \(0\), t4 7e14c185 \(0\), t5 5ebda8f1 \(0\)\] · threshold 3\n +· does not fire: 3 different signatures in the last 3 turns/)
    expect(turn5).toMatch(/stall +count fed 0 · window \[t3 82511af6 \(0\), t4 82511af6 \(0\), t5 82511af6 \(0\)\] · threshold 3\n +· FIRES: 3 equal signatures in the last 3 turns, 0 criteria passing/)
    // findings that name the turn, each with its evidence
    expect(turn5).toContain('STALL_DEFEATED_BY_VARIABLE_OUTPUT')
    expect(turn5).not.toContain('ENDED_BY_TIMEOUT_NOT_STALL')
    expect(turn5).toContain('at run.log:357')
    // the profile that the view leaves out is not shown
    expect(turn5).not.toMatch(/^ {2}as-run:351c53fa/m)
    expect(turn5).not.toContain('\x1b')
  })

  it('marks words that changed when colour is on', () => {
    const diff = renderTextDiff('FAILED a::b in 1.7s', 'FAILED a::c in 1.9s', createPalette(true))
    expect(diff[0]).toContain('\x1b[')
    expect(renderTextDiff('same', 'same', PLAIN)).toEqual([])
    expect(renderTextDiff('one\ntwo', 'one\nthree', PLAIN)).toEqual(['  one', '- two', '+ three'])
  })
})

describe('whatif as text', () => {
  it('lists the flips with the change behind each, why fixed still fails, and the search bound', () => {
    const report = db003Report()
    const out = renderWhatIfText(report, [report.tasks[2]!])
    expect(out).toContain('TASK-DB-003  recorded: cancelled at turn 18 (feature task timeout, 2400 s)')
    expect(out).toMatch(/baseline +as-run:351c53fa → cancelled \(recorded\)/)
    expect(out).toMatch(/ {4}stallNormalize {2}→ unrecoverable_stall \(differs from turn 5\) {2}approximate/)
    expect(out).toContain('stallNormalize (5c2b5d82, seed 002 R2): signatures are md5 of the feedback after normalising')
    expect(out).toMatch(/still fails +fixed stops the loop at turn 5 but does not make the tests pass/)
    expect(out).toMatch(/searched +single flags and pairs of the 9 flags this task read/)
    expect(out).toContain('try one: guardkit-replay fixtures/runs/db-003-timeout --with stallNormalize')
  })

  it('says so when nothing flips a task or it was not searched', () => {
    const report = zeroOfNReport()
    expect(renderWhatIfText(report, report.tasks)).toMatch(/flips +none: no searched combination changes the outcome/)
    const db = db003Report()
    expect(renderWhatIfText(db, [db.tasks[0]!])).toContain('not searched: the task could not be replayed')
  })
})
