import {execFileSync, spawnSync} from 'node:child_process'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {summariseGate} from '../../src/explain/gate/summarise.js'
import type {GateRun, GateReport, GateTask} from '../../src/render/gate-report.js'
import {inCi} from './ci.js'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const FIXTURES = join(ROOT, 'fixtures/runs')
export const JUNIT_XSD = join(ROOT, 'test/fixtures/junit/jenkins-junit-4.xsd')

/** A task with every field, overridable. */
export function gateTask(parts: Partial<GateTask> = {}): GateTask {
  return {
    taskId: 'TASK-X-001',
    attempt: 1,
    classification: 'unchanged',
    failing: false,
    approximate: false,
    reasons: [],
    skipReason: null,
    baseline: {subject: 'legacy', outcome: 'approved', kind: 'approved', endTurn: 1, stallTurn: null, fidelity: 'exact'},
    candidate: {subject: 'fixed', outcome: 'approved', kind: 'approved', endTurn: 1, stallTurn: null, fidelity: 'exact'},
    recorded: {outcome: 'approved', turns: 1, stallTurn: null},
    expectation: null,
    turns: null,
    findings: [],
    reproduce: 'guardkit-replay explain RUN --task TASK-X-001',
    ...parts,
  }
}

export function gateRun(path: string, tasks: GateTask[], parts: Partial<GateRun> = {}): GateRun {
  return {path, era: {profile: 'legacy', modelled: true, confidence: 'high', reason: 'markers'}, ingestIssues: 0, skipReason: null, tasks, ...parts}
}

export function gateReport(runs: GateRun[], parts: Partial<GateReport> = {}): GateReport {
  const policy = parts.policy ?? {failOn: []}
  const {summary, verdict} = summariseGate(runs, policy)
  return {
    schemaVersion: 1,
    kind: 'guardkit-replay/gate',
    tool: {name: 'guardkit-replay', version: 't'},
    baseline: {name: 'legacy', kind: 'profile', description: 'd', flags: []},
    candidate: {name: 'fixed', kind: 'profile', description: 'd', flags: ['stallNormalize']},
    policy,
    shard: null,
    merged: null,
    inputs: ['corpus'],
    expectations: [],
    summary,
    verdict,
    runs,
    problems: [],
    ...parts,
  }
}

/**
 * The schema tests need xmllint (Debian's libxml2-utils). CI installs it and always runs them (a
 * missing xmllint fails there); elsewhere `npm test` on a machine without it leaves them out, as the
 * browser and tmux tests do without chromium and tmux.
 */
export const XML_SCHEMA_TESTS = spawnSync('xmllint', ['--version']).error === undefined || inCi()

/** `xmllint --noout --schema XSD FILE`: a real XML parser and the Jenkins JUnit schema (test/fixtures/junit). */
export function xmllintSchema(xml: string): {ok: boolean; output: string} {
  const file = join(mkdtempSync(join(tmpdir(), 'gr-junit-')), 'junit.xml')
  writeFileSync(file, xml)
  const r = spawnSync('xmllint', ['--noout', '--schema', JUNIT_XSD, file], {encoding: 'utf8'})
  if (r.error) throw new Error(`xmllint is needed for this test (Debian: apt-get install libxml2-utils; .ci/run installs it): ${r.error.message}`)
  return {ok: r.status === 0, output: `${r.stdout}${r.stderr}`}
}

/** An XPath string value, read back by xmllint. */
export function xpath(xml: string, expression: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'gr-junit-')), 'junit.xml')
  writeFileSync(file, xml)
  // xmllint ends a string result with a newline of its own
  return execFileSync('xmllint', ['--xpath', expression, file], {encoding: 'utf8'}).replace(/\n$/, '')
}
