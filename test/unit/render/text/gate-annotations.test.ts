import {describe, expect, it} from 'vitest'
import {data, prop, renderGateAnnotations} from '../../../../src/render/text/gate-annotations.js'
import {gateReport, gateRun, gateTask} from '../../../helpers/gate.js'

describe('GitHub Actions annotations', () => {
  it('escape as the runner expects: %, CR, LF in messages; also : and , in properties', () => {
    // CRLF is a line break; a lone CR and other control characters are shown escaped (docs/security.md)
    expect(data('50% done\r\nnext\rx\x1b[2J')).toBe('50%25 done%0Anext\\rx\\e[2J')
    // a property is one value: a line break in it is shown, not kept
    expect(prop('a:b,c%\n')).toBe('a%3Ab%2Cc%25\\n')
  })

  it('one ::error per failing task, on the evidence line of the finding that explains it', () => {
    const task = gateTask({
      taskId: 'TASK-DB-003',
      classification: 'regressed',
      failing: true,
      reasons: [{rule: 'stall-missing', effect: 'regression', turn: 5, message: 'fixed stops the stalled loop at turn 5; legacy does not', approximate: false}],
      findings: [{code: 'STALL_DEFEATED_BY_VARIABLE_OUTPUT', severity: 'high', confidence: 'certain', turns: [5], message: 'signatures differed', fixedIn: null, evidence: [{file: '.guardkit/x.json', pointer: '/a'}, {file: 'run.log', line: 541}], reproduce: 'r', explains: ['stall-missing'], why: 'names turn 5'}],
      reproduce: 'guardkit-replay explain runs/db --task TASK-DB-003 --turn 5 --profile legacy',
    })
    const report = gateReport([gateRun('runs/db', [task, gateTask({taskId: 'TASK-OK'})]), gateRun('runs/one.log', [{...task, findings: [{...task.findings[0]!, evidence: [{file: 'one.log', line: 7}]}]}])], {
      baseline: {name: 'fixed', kind: 'profile', description: 'd', flags: []},
      candidate: {name: 'legacy', kind: 'profile', description: 'd', flags: []},
      problems: [{severity: 'warning', path: 'corpus/expectations.yaml', message: 'stale entry'}],
    })
    const lines = renderGateAnnotations(report)
    expect(lines).toHaveLength(3)
    expect(lines[0]).toBe(
      '::error file=runs/db/run.log,line=541,title=gate fixed → legacy%3A TASK-DB-003 regressed::runs/db: stall missing: fixed stops the stalled loop at turn 5; legacy does not%0A' +
        'STALL_DEFEATED_BY_VARIABLE_OUTPUT: signatures differed (names turn 5)%0Areproduce: guardkit-replay explain runs/db --task TASK-DB-003 --turn 5 --profile legacy',
    )
    // a RUN that is one log: evidence names the log itself
    expect(lines[1]).toMatch(/^::error file=runs\/one.log,line=7,/)
    expect(lines[2]).toBe('::warning file=corpus/expectations.yaml,title=guardkit-replay gate input::stale entry')
    for (const l of lines) expect(l).not.toMatch(/[\r\n]/)
  })

  it('a task with no finding is annotated on its run', () => {
    const report = gateReport([gateRun('runs/x', [gateTask({classification: 'regressed', failing: true, reasons: [{rule: 'approval-lost', effect: 'regression', turn: 1, message: 'm', approximate: false}]})])])
    expect(renderGateAnnotations(report)[0]).toMatch(/^::error file=runs\/x,title=/)
  })
})
