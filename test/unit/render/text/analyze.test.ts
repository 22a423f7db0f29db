import {describe, expect, it} from 'vitest'
import type {AnalysisReport} from '../../../../src/explain/analysis.js'
import {renderAnalyzeText} from '../../../../src/render/text/analyze.js'
import {shortenCaveat} from '../../../../src/render/text/verdict.js'
import {visibleWidth} from '../../../../src/render/text/layout.js'
import {createPalette, PLAIN} from '../../../../src/render/text/palette.js'
import {aReplayedTurn, db003Report, zeroOfNReport} from '../analysis-builders.js'

const ESC = '\x1b'

function lines(text: string): string[] {
  return text.split('\n')
}

function indexOfLine(text: string, needle: string | RegExp): number {
  return lines(text).findIndex((l) => (typeof needle === 'string' ? l.includes(needle) : needle.test(l)))
}

describe('analyze text report (docs/cli.md "The text report")', () => {
  it('opens with the run and its era, then a verdict per task before any detail', () => {
    const out = renderAnalyzeText(db003Report())
    const [first, ...rest] = lines(out)
    expect(first).toBe('guardkit-replay · FEAT-BA28 · fixtures/runs/db-003-timeout · 1 log, 1 worktree')
    const era = rest.slice(0, 2).join(' ').replace(/\s+/g, ' ')
    expect(era).toContain('GuardKit era between 351c53fa and 8a697b80 (high confidence, from 12 records)')
    expect(era).toContain("replayed under as-run:351c53fa (the run's era), legacy, fixed")
    // all three verdicts come before the first detail section
    const detail = indexOfLine(out, /^── TASK-DB-003/)
    for (const id of ['TASK-DB-001', 'TASK-DB-002', 'TASK-DB-003']) {
      const at = indexOfLine(out, new RegExp(`^${id}  `))
      expect(at).toBeGreaterThan(0)
      expect(at).toBeLessThan(detail)
    }
  })

  it('says what happened, why, what each profile would do, and the waste', () => {
    const out = renderAnalyzeText(db003Report())
    expect(out).toContain('TASK-DB-003  ✗ recorded: cancelled at turn 18 (feature task timeout, 2400 s)')
    expect(out).toMatch(/\n {2}why +the Coach's own test run could not reach the database, every turn;/)
    expect(out).toMatch(/\n {2}fixed +stops at turn 5: unrecoverable_stall, normalised signature 82511af6/)
    // the waste does not fit on the verdict line at 100 columns: its own row, with the basis
    expect(out).toMatch(/\n {2}waste +13 turns wasted \(≈ 30 min\): fixed stops at turn 5;/)
    // on a wide terminal it joins the verdict line
    expect(renderAnalyzeText(db003Report(), {width: 140})).toContain('(feature task timeout, 2400 s)   13 turns wasted (≈ 30 min)')
  })

  it('labels an approximate replay, with what it assumed under --verbose, and never an exact one', () => {
    const out = renderAnalyzeText(db003Report())
    expect(out.replace(/\s+/g, ' ')).toContain('fixed stops at turn 5: unrecoverable_stall, normalised signature 82511af6 (approximate; --verbose says why)')
    const verbose = renderAnalyzeText(db003Report(), {verbose: true}).replace(/\s+/g, ' ')
    expect(verbose).toContain('stops at turn 5: unrecoverable_stall, normalised signature 82511af6 (approximate: feedback rebuilt from log categories; test results held as recorded)')
    const legacy = lines(out).find((l) => /^ {2}legacy +would loop the same way/.test(l))!
    expect(legacy).not.toContain('approximate')
  })

  it('keeps the first clause of a long caveat in the verdict, the whole of it with --verbose', () => {
    expect(shortenCaveat('undetermined after turn 1 (approximate: without D9 the promises are overwritten (0/6); missing: the criteria; more)')).toBe('undetermined after turn 1 (approximate: without D9 the promises are overwritten (0/6); …)')
    expect(shortenCaveat('stops at turn 5 (approximate: one thing)')).toBe('stops at turn 5 (approximate: one thing)')
    expect(shortenCaveat('approved at turn 1')).toBe('approved at turn 1')
  })

  it('gives a task that went well one line, plus the profiles that would have ended it differently', () => {
    const out = renderAnalyzeText(db003Report())
    const at = indexOfLine(out, /^TASK-DB-001 /)
    expect(lines(out)[at]).toBe('TASK-DB-001  ✓ recorded: approved at turn 1')
    expect(lines(out)[at + 1]).toMatch(/^ {2}legacy +rejects turn 1 \(0\/6: promises overwritten\); undetermined after turn 1$/)
    expect(lines(out)[at + 2]).toMatch(/^TASK-DB-002 /)
    expect(out).not.toMatch(/^── TASK-DB-001/m)
  })

  it('draws the cause chain as trees: each effect under its cause, then the other roots by severity', () => {
    const out = renderAnalyzeText(db003Report())
    const order = ['INFRA_TEST_FAILURE', 'FEEDBACK_NOT_ACTIONABLE', 'STALL_DEFEATED_BY_VARIABLE_OUTPUT', 'ENDED_BY_TIMEOUT_NOT_STALL', 'STALL_WINDOW_BROKEN', 'ABSOLUTE_RELATIVE_DUPLICATES']
    const at = order.map((code) => indexOfLine(out, new RegExp(`\\b\\d ${code}\\b`)))
    expect(at.every((i) => i > 0)).toBe(true)
    expect([...at].sort((a, b) => a - b)).toEqual(at)
    expect(lines(out)[at[0]!]).toMatch(/^ {2}high {4}1 INFRA_TEST_FAILURE {2}t1,t3–t17$/)
    expect(lines(out)[at[1]!]).toMatch(/^ {2}med {2}└▶ 2 FEEDBACK_NOT_ACTIONABLE {2}t1,t17$/)
    expect(lines(out)[at[2]!]).toMatch(/^ {2}high {3}└▶ 3 STALL_DEFEATED_BY_VARIABLE_OUTPUT {2}t3–t5$/)
    expect(lines(out)[at[4]!]).toMatch(/^ {2}low {5}5 STALL_WINDOW_BROKEN {2}t2$/)
    // an inferred finding says so
    expect(lines(out)[at[5]! + 1]).toContain('(inferred)')
  })

  it('prints what to do now and what GuardKit fixed and did not', () => {
    const out = renderAnalyzeText(db003Report())
    expect(out).toMatch(/\n {2}do now {6}• mock the database in conftest\.py or use SQLite for tests\n {14}• run the Coach's tests with the Player's environment/)
    expect(out).toMatch(/\n {2}fixed in +stallNormalize \(5c2b5d82\), summaryErrorContext \(5c2b5d82\); not fixed: gate\n +short-circuit ordering/)
  })

  it('shows the stall detector turn by turn up to one turn past the first stall, with the window that fires', () => {
    const out = renderAnalyzeText(db003Report())
    expect(out.replace(/\s+/g, ' ')).toContain('signatures (md5 of the feedback sent, 8 hex digits) per profile; legacy (= as-run:351c53fa): md5 of the full feedback; fixed: md5 after normalising')
    expect(out).toMatch(/\n {3}turn {2}feedback \(first line\) +count {2}legacy {4}fixed {6}window \(fixed\)\n/)
    const row = (turn: number) => lines(out).find((l) => new RegExp(`^ {3} +${turn} {2}- `).test(l))
    expect(row(2)).toMatch(/- Coverage threshold not met +0 {2}f696a94c {2}f696a94c {3}\[82511af6 f696a94c\]$/)
    expect(row(5)).toMatch(/ 5ebda8f1 {2}82511af6~ {2}\[82511af6 ×3\] → FIRES$/)
    expect(row(6)).toMatch(/ deaab5ff {2}stopped$/)
    expect(row(7)).toBeUndefined()
    expect(out).toContain('… 12 more turns (--verbose shows every turn)')
    expect(out).toContain('~ approximate (fixed): feedback rebuilt from log categories; test results held as recorded')
    // a command too long for the line continues on the next with a shell line continuation
    expect(out.replace(/ \\\n +/g, ' ')).toContain('reproduce: guardkit-replay explain fixtures/runs/db-003-timeout --task TASK-DB-003 --turn 5 --profile fixed')
  })

  it('shows a signature the records cannot give as (not in log), never a made-up one', () => {
    const report = db003Report()
    const db3 = report.tasks[2]!
    const legacy = db3.replays.legacy!
    // the log-only case: legacy needs the full feedback text, which the log did not keep on turns 1, 3, 4
    const turns = legacy.turns.map((u) => ([1, 3, 4].includes(u.turn) ? aReplayedTurn(u.turn, {signature: null, stall: null, fidelity: 'insufficient', missingInputs: ['the full feedback text']}) : u))
    const changed: AnalysisReport = {...report, tasks: [report.tasks[0]!, report.tasks[1]!, {...db3, replays: {...db3.replays, legacy: {...legacy, turns}}}]}
    const out = renderAnalyzeText(changed)
    const row = (turn: number) => lines(out).find((l) => new RegExp(`^ {3} +${turn} {2}- `).test(l))!
    expect(row(1)).toMatch(/\(not in log\) +82511af6~/)
    expect(row(2)).toMatch(/f696a94c +f696a94c +f696a94c/)
    expect(row(3)).toContain('(not in log)')
  })

  it('explains 0/N: per criterion and profile the decider, the data seen, the closest requirement, the data trail, and GuardKit’s dump', () => {
    const out = renderAnalyzeText(zeroOfNReport())
    expect(out).toMatch(/\n {2}0\/2 on turn 1\n {4}legacy +strategy text; 0\/2\n {4}fixed +strategy hybrid; 1\/2\n/)
    expect(out).toMatch(/AC-002 Passwords are hashed with bcrypt\n {6}✗ legacy {2}text-none · requirements_met \[\]\n {6}✗ fixed {3}text-none · requirements_met \(1\) · closest “hash passwords” 50% \(rule: ≥ 70%\)/)
    expect(out).toMatch(/✓ fixed {3}promise-complete · promise complete/)
    expect(out).toMatch(/trail legacy: AgentInvoker\._write_player_report: the agent-written report held 2 promises;/)
    expect(out).toContain("GuardKit's own 0/N dump (run.log:88); --verbose prints it")
    const verbose = renderAnalyzeText(zeroOfNReport(), {verbose: true})
    expect(verbose).toContain('      matching_strategy: text')
  })

  it('says when a 0/N turn had its criteria not evaluated at all', () => {
    const out = renderAnalyzeText(db003Report())
    expect(out).toMatch(/0\/6 on turns 1–17; as judged on turn 1\n {4}as-run:351c53fa +0\/6, no per-criterion detail/)
  })

  it('--verbose adds every turn, evidence lines and the era reasoning', () => {
    const out = renderAnalyzeText(db003Report(), {verbose: true})
    expect(out).toContain('turn by turn')
    expect(out).toMatch(/\n {2}turn 17\n/)
    expect(out).toContain('at run.log:1404')
    expect(out).toContain('stall-error-v1 wording')
    expect(out).not.toContain('more turns (--verbose')
  })

  it('has no escape codes without colour, and colour codes with it', () => {
    expect(renderAnalyzeText(db003Report(), {palette: PLAIN})).not.toContain(ESC)
    expect(renderAnalyzeText(db003Report(), {palette: createPalette(true)})).toContain(`${ESC}[31m`)
  })

  it('neutralises control sequences that come from the records', () => {
    const report = db003Report()
    const db3 = report.tasks[2]!
    const hostile: AnalysisReport = {...report, tasks: [{...db3, verdict: {...db3.verdict, why: `evil\x1b]0;pwned\x07 title \x1b[2J clear\r`}}]}
    for (const palette of [PLAIN, createPalette(true)]) {
      const out = renderAnalyzeText(hostile, {palette})
      expect(out).not.toContain('\x1b]')
      expect(out).not.toContain('\x1b[2J')
      expect(out).not.toContain('\x07')
      expect(out).not.toContain('\r')
      // shown escaped (docs/security.md), not acted on
      expect(out).toContain('evil\\e]0;pwned\\a title \\e[2J clear')
    }
  })

  it('fits prose to the width it is given', () => {
    for (const width of [72, 100]) {
      const out = renderAnalyzeText(db003Report(), {width})
      const verdict = lines(out).slice(0, indexOfLine(out, /^feature /))
      for (const l of verdict) expect(visibleWidth(l)).toBeLessThanOrEqual(width)
    }
  })
})
