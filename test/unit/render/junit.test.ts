import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {renderJunit} from '../../../src/render/junit.js'
import {gateReport, gateRun, gateTask, XML_SCHEMA_TESTS, xmllintSchema, xpath} from '../../helpers/gate.js'

const regressed = (message: string, taskId = 'TASK-DB-003') =>
  gateTask({
    taskId,
    classification: 'regressed',
    failing: true,
    reasons: [{rule: 'stall-missing', effect: 'regression', turn: 5, message, approximate: true}],
    findings: [{code: 'STALL_DEFEATED_BY_VARIABLE_OUTPUT', severity: 'high', confidence: 'certain', turns: [3, 4, 5], message: 'signatures differed', fixedIn: {flags: ['stallNormalize'], commit: '5c2b5d82'}, evidence: [{file: 'run.log', line: 541}], reproduce: 'guardkit-replay explain x --task TASK-DB-003', explains: ['stall-missing'], why: 'fixed by stallNormalize'}],
  })

describe.runIf(XML_SCHEMA_TESTS)('JUnit XML (hand-rolled, validated with xmllint against the Jenkins JUnit schema)', () => {
  it('one testsuite per run, one testcase per task, failures with the explanation, skipped with the reason', () => {
    const report = gateReport([
      gateRun('runs/a', [regressed('fixed stops the stalled loop at turn 5; legacy does not'), gateTask({taskId: 'TASK-DB-001'})]),
      gateRun('runs/b', [gateTask({classification: 'skipped', skipReason: 'not modelled: older than f86b1bf9'})]),
      gateRun('runs/c.log', [], {era: null, skipReason: 'no AutoBuild run found in c.log'}),
    ], {baseline: {name: 'fixed', kind: 'profile', description: 'd', flags: []}, candidate: {name: 'legacy', kind: 'profile', description: 'd', flags: []}})
    const xml = renderJunit(report)
    expect(xmllintSchema(xml)).toEqual({ok: true, output: expect.stringContaining('validates')})
    expect(xpath(xml, 'string(/testsuites/@tests)')).toBe('4')
    expect(xpath(xml, 'string(/testsuites/@failures)')).toBe('1')
    expect(xpath(xml, 'count(//testsuite)')).toBe('3')
    expect(xpath(xml, 'string(//testsuite[@name="runs/a"]/testcase[1]/@name)')).toBe('TASK-DB-003')
    expect(xpath(xml, 'string(//testsuite[@name="runs/a"]/testcase[1]/@classname)')).toBe('runs/a')
    expect(xpath(xml, 'string(//testsuite[@name="runs/a"]/testcase[1]/failure/@message)')).toBe('stall missing: fixed stops the stalled loop at turn 5; legacy does not')
    const body = xpath(xml, 'string(//testsuite[@name="runs/a"]/testcase[1]/failure)')
    expect(body).toContain('STALL_DEFEATED_BY_VARIABLE_OUTPUT')
    expect(body).toContain('reproduce: guardkit-replay explain RUN --task TASK-X-001')
    expect(xpath(xml, 'string(//testsuite[@name="runs/b"]/testcase/skipped)')).toBe('not modelled: older than f86b1bf9')
    expect(xpath(xml, 'string(//testsuite[@name="runs/c.log"]/@skipped)')).toBe('1')
  })

  it('with --fail-on skipped, a run that could not be read is a failure', () => {
    const report = gateReport([gateRun('runs/c.log', [], {era: null, skipReason: 'no AutoBuild run'})], {policy: {failOn: ['skipped']}})
    const xml = renderJunit(report)
    expect(xmllintSchema(xml).ok).toBe(true)
    expect(xpath(xml, 'string(//testcase/failure/@type)')).toBe('skipped')
    expect(report.verdict).toBe('fail')
  })

  it('escapes everything: markup, quotes, line breaks in attributes, control characters shown escaped, and characters XML 1.0 forbids (even as references)', () => {
    const nasty = 'a<b>&"c\' ]]> \x1b[31mred\x1b[0m \x00\x07\x0b\x0c \ud800 \uffff\ufffe tab\tline\r\nnext 🙂'
    const xml = renderJunit(gateReport([gateRun(`runs/${nasty}`, [regressed(nasty, `TASK-${nasty}`)])]))
    expect(xmllintSchema(xml).ok).toBe(true)
    const message = xpath(xml, 'string(//testcase/failure/@message)')
    // control characters and a lone surrogate shown escaped (docs/security.md), CRLF read as LF, the two
    // non-characters XML 1.0 forbids replaced by U+FFFD, a tab and the line break kept
    expect(message).toBe('stall missing: a<b>&"c\' ]]> \\e[31mred\\e[0m \\0\\a\\v\\f \\ud800 \ufffd\ufffd tab\tline\nnext 🙂')
    expect(xpath(xml, 'string(//testsuite/@name)')).toContain('a<b>&"c\' ]]>')
  })

  it('any text from the records gives a document the schema accepts (200 random strings, one document)', () => {
    const strings = fc.sample(fc.string({unit: 'binary', maxLength: 60}), {numRuns: 200, seed: 42})
    const tasks = strings.map((s, i) => (i % 2 === 0 ? regressed(s, `TASK-${i}-${s}`) : gateTask({taskId: `TASK-${i}-${s}`, classification: 'skipped', skipReason: s})))
    const xml = renderJunit(gateReport([gateRun('runs/random', tasks)]))
    const r = xmllintSchema(xml)
    expect(r.output).toContain('validates')
    expect(xpath(xml, 'count(//testcase)')).toBe(String(strings.length))
  })
})
