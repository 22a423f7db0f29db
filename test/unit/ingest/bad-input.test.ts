import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {cp, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {discoverRun} from '../../../src/ingest/discover.js'
import {createFaultInjectingPort} from '../../../src/ingest/fs/fault-injecting-port.js'
import {createNodeFilePort} from '../../../src/ingest/fs/node-file-port.js'
import {readTextFile} from '../../../src/ingest/fs/read-text.js'
import {hasRunContent} from '../../../src/ingest/merge-artifacts.js'
import type {IngestIssue} from '../../../src/model/ingest-issue.js'
import type {RunRecord} from '../../../src/model/run-record.js'
import {UsageError} from '../../../src/shared/errors.js'
import {DEFAULT_LIMITS, hashTree, ingestPath, makeTree, removeTree} from '../../helpers/run-helpers.js'

const FIXTURE = fileURLToPath(new URL('../../../fixtures/ingest/bad-worktree', import.meta.url))
const A = '.guardkit/autobuild/TASK-BAD-001'
const B = '.guardkit/autobuild/TASK-BAD-002'
const node = createNodeFilePort()

function issueAt(record: RunRecord, file: string): IngestIssue[] {
  return record.ingestIssues.filter((i) => i.file === file)
}

describe('bad input in a worktree: each problem is an issue, the rest of RUN is read', () => {
  let record: RunRecord
  let before: string
  beforeAll(async () => {
    before = await hashTree(FIXTURE)
    record = await ingestPath(FIXTURE)
  })

  it('malformed JSON: an error with the line and column, the turn still comes from the log', () => {
    expect(issueAt(record, `${A}/coach_turn_2.json`)).toEqual([
      {file: `${A}/coach_turn_2.json`, line: 5, code: 'json-invalid', severity: 'error', message: "invalid JSON at line 5, column 2: Expecting ',' delimiter"},
    ])
    const turn2 = record.tasks.find((t) => t.taskId === 'TASK-BAD-001')!.turns[1]!
    expect(turn2.artifacts.coachReport).toBeNull()
    expect(turn2.coach.decision?.value).toBe('approve')
    expect(turn2.coach.decision?.evidence.every((e) => e.file === 'run.log')).toBe(true)
  })

  it('truncated JSON: an error that says the file ends early', () => {
    expect(issueAt(record, `${A}/player_turn_1.json`)).toEqual([
      expect.objectContaining({line: 4, code: 'truncated', severity: 'error', message: expect.stringContaining('ends early at line 4')}),
    ])
  })

  it('wrong types: a warning per value with its JSON pointer; the raw JSON is kept', () => {
    expect(issueAt(record, `${A}/task_work_results.json`).map((i) => [i.pointer, i.code, i.severity])).toEqual([
      ['/completed', 'json-shape', 'warning'],
      ['/quality_gates/tests_passed', 'json-shape', 'warning'],
      ['/files_modified/1', 'json-shape', 'warning'],
    ])
    const turn2 = record.tasks.find((t) => t.taskId === 'TASK-BAD-001')!.turns[1]!
    expect(turn2.artifacts.taskWorkResults[0]?.json).toMatchObject({completed: 'yes'})
  })

  it('an empty file, a binary file, an unknown kind', () => {
    expect(issueAt(record, `${A}/turn_context.json`)).toEqual([expect.objectContaining({code: 'empty', severity: 'warning', message: 'the file is empty'})])
    expect(issueAt(record, `${B}/player_turn_1.json`)).toEqual([expect.objectContaining({code: 'binary', severity: 'warning'})])
    expect(issueAt(record, `${A}/verdict_turn_1.json`)).toEqual([expect.objectContaining({code: 'unknown-kind', severity: 'info'})])
  })

  it('invalid YAML in a feature file and in a task\'s frontmatter: errors with their lines', () => {
    expect(issueAt(record, '.guardkit/features/FEAT-BAD.yaml')).toEqual([expect.objectContaining({line: 6, code: 'yaml-invalid', severity: 'error'})])
    expect(issueAt(record, 'tasks/backlog/TASK-BAD-001-broken-frontmatter.md')).toEqual([expect.objectContaining({line: 4, code: 'yaml-invalid', severity: 'warning'})])
  })

  it('every issue is a plain sentence with a file, and no more issues than the damage', () => {
    expect(record.ingestIssues).toHaveLength(10)
    for (const i of record.ingestIssues) {
      expect(i.file).not.toBe('')
      expect(i.message).not.toMatch(/\n\s+at |Error:|undefined|\[object/)
    }
  })

  it('still reads every task, turn and good file', () => {
    expect(record.tasks.map((t) => [t.taskId, t.outcome?.value, t.turns.length, t.sources])).toEqual([
      ['TASK-BAD-001', 'approved', 2, {log: true, artifacts: true}],
      ['TASK-BAD-002', 'approved', 1, {log: true, artifacts: true}],
    ])
    const bad1 = record.tasks[0]!
    expect(bad1.turns[0]!.coach.feedback?.text).toBe('- Not all acceptance criteria met:\n  • Config file exists\n  • Tests pass')
    expect(bad1.turns[0]!.checkpoint?.value.hash).toBe('1111aaaa0000000000000000000000000000beef')
    expect(bad1.taskFile?.file).toBe('tasks/backlog/TASK-BAD-001-broken-frontmatter.md')
    expect(record.tasks[1]!.criteria?.texts).toEqual(['It works'])
  })

  it('does not modify RUN', async () => {
    expect(await hashTree(FIXTURE)).toBe(before)
  })
})

describe('bad input the file system produces (injected: CI runs as root, where file modes do not stop reads)', () => {
  let root: string
  let record: RunRecord
  let before: string
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'gkr-bad-'))
    await cp(FIXTURE, root, {recursive: true})
    before = await hashTree(root)
    const port = createFaultInjectingPort(node, {
      [join(root, A, 'coach_turn_1.json')]: {readError: 'EIO'},
      [join(root, B, 'coach_turn_1.json')]: {readError: 'EACCES'},
      [join(root, A, 'player_turn_2.json')]: {changing: {visibleBytes: 40}},
      [join(root, B, 'checkpoints.json')]: {changing: {visibleBytes: 20, reads: 1}},
      [join(root, 'tasks')]: {readdirError: 'EACCES'},
    })
    record = await ingestPath(root, {port})
  })
  afterAll(async () => {
    await rm(root, {recursive: true, force: true})
  })

  it('an unreadable file (EIO, EACCES) is an error naming the file; the log still gives the turn', () => {
    expect(issueAt(record, `${A}/coach_turn_1.json`)).toEqual([
      {file: `${A}/coach_turn_1.json`, code: 'unreadable', severity: 'error', message: 'cannot read the file: input/output error while reading (EIO)'},
    ])
    expect(issueAt(record, `${B}/coach_turn_1.json`)).toEqual([expect.objectContaining({code: 'unreadable', message: 'cannot read the file: permission denied (EACCES)'})])
    expect(record.tasks[0]!.turns[0]!.coach.decision?.value).toBe('feedback')
  })

  it('an unreadable directory is an error naming it', () => {
    expect(issueAt(record, 'tasks')).toEqual([expect.objectContaining({code: 'unreadable', severity: 'error', message: expect.stringContaining('cannot list the directory')})])
  })

  it('a file written while read: a warning, and what was read (here cut JSON) is judged as such', () => {
    expect(issueAt(record, `${A}/player_turn_2.json`).map((i) => [i.code, i.severity])).toEqual([['changed-during-read', 'warning'], ['truncated', 'error']])
  })

  it('a file that was changing but settled on a second read is read without an issue', () => {
    expect(issueAt(record, `${B}/checkpoints.json`)).toEqual([])
    expect(record.tasks[1]!.turns[0]!.checkpoint?.value.hash).toBe('3333cccc0000000000000000000000000000beef')
  })

  it('does not modify RUN', async () => {
    expect(await hashTree(root)).toBe(before)
  })
})

describe('bad input: lines of megabytes, symlinks out of RUN, empty and missing RUN', () => {
  const roots: string[] = []
  afterAll(async () => {
    for (const r of roots) await removeTree(r)
  })

  it('a log line of megabytes is cut and reported with its line; the records around it are read', async () => {
    const log = await import('node:fs/promises').then((fs) => fs.readFile(join(FIXTURE, 'run.log'), 'utf8'))
    const lines = log.split('\n')
    lines.splice(3, 0, 'x'.repeat(3 * 1024 * 1024))
    const root = await makeTree({'run.log': lines.join('\n')})
    roots.push(root)
    const record = await ingestPath(root)
    expect(record.ingestIssues).toContainEqual(expect.objectContaining({file: 'run.log', line: 4, code: 'too-long-line', severity: 'warning'}))
    expect(record.tasks.map((t) => t.outcome?.value)).toEqual(['approved', 'approved'])
  })

  it('a task file with a line of megabytes is cut and reported with its line', async () => {
    const root = await makeTree({
      '.guardkit/autobuild/TASK-L-001/coach_turn_1.json': '{"task_id": "TASK-L-001", "turn": 1, "decision": "approve"}',
      'tasks/backlog/TASK-L-001-long.md': `---\nid: TASK-L-001\n---\n# Long\n${'y'.repeat(2 * 1024 * 1024)}\n## Acceptance Criteria\n- [ ] a\n`,
    })
    roots.push(root)
    const record = await ingestPath(root)
    expect(record.ingestIssues).toEqual([expect.objectContaining({file: 'tasks/backlog/TASK-L-001-long.md', line: 5, code: 'too-long-line'})])
    expect(record.tasks[0]!.criteria?.texts).toEqual(['a'])
  })

  it('a minified JSON artifact of megabytes is fine (JSON has no line limit)', async () => {
    const big = JSON.stringify({task_id: 'TASK-L-001', turn: 1, decision: 'feedback', rationale: 'r'.repeat(3 * 1024 * 1024)})
    const root = await makeTree({'.guardkit/autobuild/TASK-L-001/coach_turn_1.json': big})
    roots.push(root)
    const record = await ingestPath(root)
    expect(record.ingestIssues).toEqual([])
    expect(record.tasks[0]!.turns[0]!.coach.decision?.value).toBe('feedback')
  })

  it('a file over the size limit is skipped with an error (artifacts) or read up to it (logs)', async () => {
    const root = await makeTree({'.guardkit/autobuild/TASK-L-001/coach_turn_1.json': JSON.stringify({task_id: 'TASK-L-001', turn: 1, decision: 'feedback', rationale: 'r'.repeat(5000)})})
    roots.push(root)
    const record = await ingestPath(root, {limits: {...DEFAULT_LIMITS, maxArtifactBytes: 1024}})
    expect(record.ingestIssues).toEqual([expect.objectContaining({code: 'too-large', severity: 'error', message: 'the file is larger than 1 KiB: skipped'})])
    const log = await readTextFile(node, join(FIXTURE, 'run.log'), 'run.log', {maxBytes: 1024, maxLineChars: null, whenTooLarge: 'keep-head'})
    expect(log.issues).toEqual([expect.objectContaining({code: 'too-large', severity: 'warning'})])
    expect(log.text?.length).toBeLessThanOrEqual(1024)
  })

  it('symlinks to files and folders outside RUN are reported and not followed', async () => {
    const outside = await makeTree({'other/.guardkit/autobuild/TASK-O-001/coach_turn_1.json': '{"task_id": "TASK-O-001", "turn": 1, "decision": "approve"}', 'x.log': 'secret'})
    const root = await makeTree({
      '.guardkit/autobuild/TASK-L-001/coach_turn_1.json': '{"task_id": "TASK-L-001", "turn": 1, "decision": "approve"}',
      '.guardkit/autobuild/TASK-L-001/player_turn_1.json': {symlink: join(outside, 'x.log')},
      '.guardkit/autobuild/TASK-O-001': {symlink: join(outside, 'other/.guardkit/autobuild/TASK-O-001')},
    })
    roots.push(root, outside)
    const before = await hashTree(root)
    const record = await ingestPath(root)
    expect(record.ingestIssues).toEqual([
      expect.objectContaining({file: '.guardkit/autobuild/TASK-O-001', code: 'symlink-outside', severity: 'warning'}),
      expect.objectContaining({file: '.guardkit/autobuild/TASK-L-001/player_turn_1.json', code: 'symlink-outside', severity: 'warning'}),
    ])
    expect(record.tasks.map((t) => t.taskId)).toEqual(['TASK-L-001'])
    expect(await hashTree(root)).toBe(before)
  })

  it('invalid UTF-8 is a warning with its line; the text is read with replacement characters', async () => {
    const root = await makeTree({'a.json': new Uint8Array([0x7b, 0x0a, 0x22, 0x61, 0x22, 0x3a, 0x20, 0x22, 0xff, 0xfe, 0x22, 0x7d])})
    roots.push(root)
    const r = await readTextFile(node, join(root, 'a.json'), 'a.json', {maxBytes: 1 << 20, maxLineChars: null, whenTooLarge: 'skip'})
    expect(r.issues).toEqual([expect.objectContaining({line: 2, code: 'invalid-utf8', severity: 'warning'})])
    expect(r.text).toBe('{\n"a": "\ufffd\ufffd"}')
  })

  it('an empty RUN holds nothing usable (the command exits 2); a missing RUN is a usage error', async () => {
    const root = await makeTree({})
    roots.push(root)
    expect(hasRunContent(await ingestPath(root))).toBe(false)
    const inputsOnly = await makeTree({'tasks/backlog/TASK-A-1-x.md': '# x', '.guardkit/features/FEAT-A.yaml': 'id: FEAT-A\ntasks: []\n'})
    roots.push(inputsOnly)
    expect(hasRunContent(await ingestPath(inputsOnly))).toBe(false)
    expect(hasRunContent(await ingestPath(FIXTURE))).toBe(true)
    await expect(discoverRun(node, join(root, 'missing'))).rejects.toBeInstanceOf(UsageError)
  })

  it('an empty or missing folder inside RUN is not an error', async () => {
    const root = await makeTree({'.guardkit/autobuild/TASK-E-001': {dir: true}, '.guardkit/autobuild/TASK-E-002/coach_turn_1.json': '{"task_id": "TASK-E-002", "turn": 1, "decision": "approve"}'})
    roots.push(root)
    const record = await ingestPath(root)
    expect(record.ingestIssues).toEqual([expect.objectContaining({file: '.guardkit/autobuild/TASK-E-001', code: 'empty-dir', severity: 'info'})])
    expect(record.tasks.map((t) => t.taskId)).toEqual(['TASK-E-002'])
  })

  it('an empty log is a warning and an unreadable one an error; neither stops the others', async () => {
    const log = await import('node:fs/promises').then((fs) => fs.readFile(join(FIXTURE, 'run.log'), 'utf8'))
    const root = await makeTree({'a.log': log, 'b.log': log})
    roots.push(root)
    await writeFile(join(root, 'c.log'), '')
    const port = createFaultInjectingPort(node, {[join(root, 'b.log')]: {readError: 'EIO'}})
    // b.log is unreadable from the start, so discovery's sniff already reports it
    const record = await ingestPath(root, {port})
    expect(record.ingestIssues.map((i) => [i.file, i.code, i.severity])).toEqual([['b.log', 'unreadable', 'error'], ['c.log', 'empty', 'warning']])
    expect(record.tasks.map((t) => t.taskId)).toEqual(['TASK-BAD-001', 'TASK-BAD-002'])
  })
})
