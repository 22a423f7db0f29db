import {describe, expect, it} from 'vitest'
import type {AnalysisReport} from '../../../../src/explain/analysis.js'
import {renderAnalyzeMarkdown} from '../../../../src/render/markdown/analyze.js'
import {renderExplainMarkdown} from '../../../../src/render/markdown/explain.js'
import {mdBlock, mdCell, mdCode} from '../../../../src/render/markdown/md.js'
import {renderWhatIfMarkdown} from '../../../../src/render/markdown/whatif.js'
import {db003Report, zeroOfNReport} from '../analysis-builders.js'

describe('Markdown report', () => {
  it('starts with a verdict table, one row per task and a column per profile', () => {
    const md = renderAnalyzeMarkdown(db003Report())
    expect(md.startsWith('## guardkit-replay: FEAT-BA28\n')).toBe(true)
    expect(md).toContain('| task | recorded | `as-run:351c53fa` | `legacy` | `fixed` | waste |')
    expect(md).toContain('| ❌ TASK-DB-003 | cancelled at turn 18 (feature task timeout, 2400 s) | would loop the same way (cancelled at turn 18: the recorded timeout ended it) | would loop the same way (cancelled at turn 18: the recorded timeout ended it) | stops at turn 5: unrecoverable_stall, normalised signature 82511af6 | 13 turns wasted (≈ 30 min) |')
    expect(md.indexOf('| ✅ TASK-DB-001')).toBeLessThan(md.indexOf('### ❌ TASK-DB-003'))
  })

  it('nests the cause chain as bullet lists and collapses the stall table and the evidence', () => {
    const md = renderAnalyzeMarkdown(db003Report())
    expect(md).toContain('- **1** `INFRA_TEST_FAILURE` (high, t1,t3–t17):')
    expect(md).toContain('\n  - ↳ **2** `FEEDBACK_NOT_ACTIONABLE` (medium, t1,t17):')
    expect(md).toContain('\n    - ↳ **3** `STALL_DEFEATED_BY_VARIABLE_OUTPUT`')
    expect(md).toContain('_(inferred)_')
    expect(md).toContain('<details>\n<summary>Stall detector, turn by turn (window of fixed)</summary>\n\n| turn |')
    expect(md).toContain('| 5 | - Independent test verification failed: | 0 | `5ebda8f1` | **`82511af6` ~** | `82511af6` ×3 **→ fires** |')
    expect(md).toContain('| 6 | - Independent test verification failed: |  | `deaab5ff` | _stopped_ |  |')
    expect(md).toContain('- ~ approximate (`fixed`): feedback rebuilt from log categories; test results held as recorded')
    expect(md).toContain('Reproduce: `guardkit-replay explain fixtures/runs/db-003-timeout --task TASK-DB-003 --turn 5 --profile fixed`')
    expect(md).not.toContain('\x1b')
  })

  it('escapes record text so that a log line cannot inject HTML or break a table or block', () => {
    const report = db003Report()
    const db3 = report.tasks[2]!
    const hostile: AnalysisReport = {...report, tasks: [{...db3, verdict: {...db3.verdict, happened: 'cancelled | </details><script>x()</script>\x1b[31m'}}]}
    const md = renderAnalyzeMarkdown(hostile)
    expect(md).toContain('cancelled \\| &lt;/details&gt;&lt;script&gt;x()&lt;/script&gt;\\e[31m')
    expect(md).not.toContain('<script>')
    expect(md).not.toContain('\x1b')
    expect(mdCell('a|b\nc')).toBe('a\\|b<br>c')
    expect(mdCode('x `y` z')).toBe('``x `y` z``')
    expect(mdBlock('```\nend')).toEqual(['````text', '```', 'end', '````'])
  })

  it('shows 0/N per criterion with GuardKit’s dump', () => {
    const md = renderAnalyzeMarkdown(zeroOfNReport())
    expect(md).toContain('<summary>0/2 on turn 1: every criterion</summary>')
    expect(md).toContain('- `legacy`: strategy `text`; 0/2\n- `fixed`: strategy `hybrid`; 1/2')
    expect(md).toContain('| `AC-002` | Passwords are hashed with bcrypt | ❌ text-none · requirements_met [] | ❌ text-none · requirements_met (1) · closest “hash passwords” 50% (rule: ≥ 70%) |')
    expect(md).toContain('- `legacy` AgentInvoker._write_player_report: the agent-written report held 2 promises; the invoker wrote its own report without them [`recoverAgentPromises`]')
    expect(md).toContain("GuardKit's own dump (run.log:88):\n\n```text\nCriteria verification 0/2 - diagnostic dump:")
  })

  it('explain: one turn with the recorded dump, the criteria per profile and the feedback diff', () => {
    const report = zeroOfNReport()
    const md = renderExplainMarkdown(report, {task: report.tasks[0]!, turn: 1, profiles: ['legacy', 'fixed']})
    expect(md).toContain('## ❌ TASK-AUTH-002, turn 1: max_turns_exceeded after 1 turn')
    expect(md).toContain("<summary>GuardKit's 0/N dump, as recorded (run.log:88)</summary>")
    expect(md).toContain('| 2 | `AC-002` Passwords are hashed with bcrypt | rejected | text-none | requirements_met: 1 item(s) | hash passwords (jaccard 0.50, below the rule) |')
    expect(md).toContain('```diff\n  - Not all acceptance criteria met:\n-   • Users can log in with email and password\n    • Passwords are hashed with bcrypt\n```')
  })

  it('whatif: a table of flips with what each change did, and the search bound', () => {
    const report = db003Report()
    const md = renderWhatIfMarkdown(report, [report.tasks[2]!])
    expect(md).toContain('Baseline `as-run:351c53fa` → cancelled (recorded)')
    expect(md).toMatch(/\| `stallNormalize` \| unrecoverable_stall \| 5 \| approximate \| 5c2b5d82: signatures are md5 of the feedback after normalising/)
    expect(md).toContain('**`fixed` still fails:** fixed stops the loop at turn 5')
    expect(md).toContain('_Searched: single flags and pairs of the 9 flags this task read_')
  })
})
