import {describe, expect, it} from 'vitest'
import {analyzeRun} from '../../../../src/explain/analyze-run.js'
import type {TaskAnalysis} from '../../../../src/explain/analysis.js'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'
import {mergeArtifacts} from '../../../../src/ingest/merge-artifacts.js'
import {CUT_TASK, cutTranscript} from '../../../helpers/cut-transcript.js'
import {catalogueWith} from '../../../../src/explain/diagnosis/catalogue/builtin.js'
import type {Catalogue, SignalRule} from '../../../../src/explain/diagnosis/catalogue/rule.js'

/** The task run of the authored transcript, analysed (docs/root-causes.md, "Truth rules"). */
function analysed(lines: readonly string[], catalogue?: Catalogue): TaskAnalysis {
  const ingest = createLogIngest()
  ingest.startFile('cut.log')
  for (const l of lines) ingest.push(l)
  const run = mergeArtifacts({runPath: 'cut.log', fromLogs: ingest.finish(), worktrees: [], fixture: null, issues: []})
  return analyzeRun(run, catalogue === undefined ? {} : {catalogue}).tasks.find((t) => t.task.taskId === CUT_TASK)!
}

const primaryOf = (t: TaskAnalysis) => t.findings.find((f) => f.id === t.diagnosis?.primary.findingId)!

describe('a Player that failed on turns whose error line is not in the log', () => {
  it('says what is known — where it failed, that it repeated, that the capture was cut and where — and no category the records cannot decide', () => {
    const task = analysed(cutTranscript({turns: 4}))
    const f = primaryOf(task)
    expect(f.code).toBe('PLAYER_ERROR_NOT_IN_LOG')
    expect(task.diagnosis?.primary.category).toBe('unknown')
    expect(f.turns).toEqual([2, 3, 4])
    expect(f.message).toMatch(/^The Player failed on t2–t4 \("Player failed - attempting state recovery"\), the same way on every one of the 3 turns/)
    expect(f.message).toMatch(/the capture was cut at line \d+ \("\.\.\. \[21000 characters truncated\] \.\.\."\) during turn 1/)
    expect(f.message).toMatch(/stage player-agent/)
    // every class of failure the catalogue places at or before the Player's invocation, in stage order
    expect(f.detail!['candidates']).toEqual(['workspace', 'agent-budget', 'configuration', 'orchestrator-defect', 'model-api', 'external-service'])
    expect(f.message).toMatch(/workspace: .*; agent-budget: .*; configuration: .*; orchestrator-defect: .*; model-api: .*; external-service: .*; nothing recorded decides between them/)
    expect(task.verdict.why).not.toMatch(/the records do not say why/)
    expect(task.findings.map((x) => x.code)).not.toContain('CAUSE_NOT_RECORDED')
    // it failed unchanged before the Coach saw anything: nothing about time, and nothing the run already did
    expect(f.remediation).not.toMatch(/timeout|more time/i)
    expect(f.remediation).toMatch(/capture the next run whole/)
  })

  it("counts a class a user's rule adds at the Player's stages among the candidates, shown by the rule's summary", () => {
    const proxy: SignalRule = {
      id: 'site.proxy-down', category: 'concurrency', stage: 'setup', role: 'cause', match: {pattern: 'proxy refused'},
      summary: 'the site proxy refused the connection', means: 'm', action: 'a', examples: ['proxy refused'], origin: {file: 'mine.yaml', line: 1},
    }
    const f = primaryOf(analysed(cutTranscript({turns: 4}), catalogueWith([proxy])))
    expect(f.detail!['candidates']).toContain('concurrency')
    expect(f.message).toContain('concurrency: the site proxy refused the connection')
  })

  it('infers the error of a turn whose line is in the log for the cut turns that failed the same way, labelled inferred', () => {
    const plan = `ERROR:guardkit.orchestrator.agent_invoker:Implementation plan not found for ${CUT_TASK}: Implementation plan not found for ${CUT_TASK}. Expected at one of: ['/home/dev/proj/.claude/task-plans/${CUT_TASK}-implementation-plan.md']`
    const task = analysed(cutTranscript({turns: 3, beforeCut: [plan]}))
    const f = primaryOf(task)
    expect(task.diagnosis).toMatchObject({primary: {category: 'orchestrator-defect'}, confidence: 'inferred'})
    expect(f.turns).toEqual([1, 2, 3])
    expect(f.deduction).toMatch(/the Player's error on t1 is in the log; on t2, t3 it is not, and their records repeat t1's Player failure and Coach feedback/)
    expect(f.message).toMatch(/the capture was cut at line \d+/)
    expect(task.verdict.why).toMatch(/\[inferred\]/)
    expect(task.findings.map((x) => x.code)).not.toContain('PLAYER_ERROR_NOT_IN_LOG')
  })

  it('says the error is not printed, not that the capture was cut, when nothing was cut', () => {
    const lines = cutTranscript({turns: 3}).filter((l) => !l.includes('characters truncated'))
    const f = primaryOf(analysed(lines))
    expect(f.code).toBe('PLAYER_ERROR_NOT_IN_LOG')
    expect(f.message).toMatch(/no line of those 2 turns records it: all the log holds of them is the AutoBuild Summary table, whose Player rows show GuardKit's display of the failure, not the error/)
    expect(f.message).not.toMatch(/cut/)
    expect(f.remediation).not.toMatch(/capture the next run whole/)
  })
})
