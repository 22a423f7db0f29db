import {chmodSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fc} from '../helpers/prop.js'
import {afterAll, describe, expect, it} from 'vitest'
import {checkCase} from '../../scripts/fuzz/check-case.js'
import {analyzeJson} from '../../scripts/fuzz/commands.js'
import {checkOutcome, type CommandOutcome} from '../../scripts/fuzz/invariants.js'
import {materialise, removeTree} from '../../scripts/fuzz/materialise.js'
import {runCase} from '../../scripts/fuzz/model/run-case.js'
import type {RunCase} from '../../scripts/fuzz/model/types.js'
import {hashTree} from '../../scripts/fuzz/tree-hash.js'

// The checks that keep the CLI fuzzer (scripts/fuzz/README.md) honest: it must notice an exit 3, a stack
// trace, two JSON documents, a write to RUN. The fuzzer itself runs at the end of the e2e tier (npm run test:e2e).

const SEED = 20261122
const root = mkdtempSync(join(tmpdir(), 'gr-fuzz-test-'))
let n = 0
const freshDir = () => join(root, `case-${++n}`)
afterAll(() => removeTree(root))

const ok = (over: Partial<CommandOutcome> = {}): CommandOutcome => ({exit: 0, signal: null, stdout: '', stderr: '', ms: 1, timedOut: false, ...over})
const report = JSON.stringify({schemaVersion: 1, tool: {name: 'guardkit-replay', version: '0'}, run: {path: '/r', logs: [], worktrees: ['.'], inferredProfile: null}, ingestIssues: [], tasks: []})

describe('the fuzzer notices what it must', () => {
  const spec = analyzeJson('/r')

  it('an exit 3, another exit code, a signal, a time-out', () => {
    expect(checkOutcome(spec, ok({exit: 3, stdout: report}))).toEqual([expect.stringContaining('exit 3 (internal error)')])
    expect(checkOutcome(spec, ok({exit: 1, stdout: report}))).toEqual([expect.stringContaining('exit 1 (only 0 or 2 are allowed)')])
    expect(checkOutcome(spec, ok({exit: null, signal: 'SIGABRT'}))).toEqual([expect.stringContaining('killed by SIGABRT')])
    expect(checkOutcome(spec, ok({timedOut: true}))).toEqual([expect.stringContaining('did not finish')])
    expect(checkOutcome(spec, ok({exit: 2, stdout: '{"error": {"message": "RUN not found"}}'}))).toEqual([])
  })

  it('a stack trace on stderr', () => {
    const stderr = 'TypeError: x is undefined\n    at parseThing (/work/main/src/ingest/x.ts:12:7)\n    at async main (file:///a/b.js:1:2)\n'
    expect(checkOutcome(spec, ok({exit: 2, stdout: '{}', stderr}))).toEqual([expect.stringContaining('a stack trace on stderr')])
    expect(checkOutcome(spec, ok({exit: 2, stdout: '{}', stderr: 'Error: RUN not found: /r\n'}))).toEqual([])
  })

  it('stdout that is not exactly one JSON document, or not the contract report on success', () => {
    expect(checkOutcome(spec, ok({stdout: `${report}\n${report}\n`}))).toEqual([expect.stringContaining('not one JSON document')])
    expect(checkOutcome(spec, ok({stdout: ''}))).toEqual([expect.stringContaining('printed nothing')])
    expect(checkOutcome(spec, ok({stdout: '{"schemaVersion": 1}'}))).toEqual([expect.stringContaining("not the contract's report")])
    expect(checkOutcome(spec, ok({stdout: report}))).toEqual([])
  })

  it('terminal control characters in text for a pipe', () => {
    const text = {name: 'analyze --format text', argv: [], json: false, text: true}
    expect(checkOutcome(text, ok({stdout: 'task \x1b[31mred\x1b[0m\n'}))).toEqual([expect.stringContaining('a control character')])
    expect(checkOutcome(text, ok({stdout: 'task\tok\n'}))).toEqual([])
  })

  it('a raw control character on stderr, a workflow command on stdout or stderr (docs/security.md)', () => {
    const text = {...spec, name: 'analyze --format text', json: false, text: true}
    expect(checkOutcome(text, ok({exit: 2, stderr: 'Error: RUN not found: \x1b]0;x\x07\n'}))).toEqual([expect.stringContaining('a control character "\\u001b" on stderr')])
    expect(checkOutcome(text, ok({stdout: 'ok\n  ::add-mask::x\n'}))).toEqual([expect.stringContaining('a line on stdout a CI runner would read as a workflow command')])
    expect(checkOutcome(text, ok({exit: 2, stderr: 'Error: x ##[error]y\n'}))).toEqual([expect.stringContaining('on stderr a CI runner would read')])
    expect(checkOutcome(text, ok({stdout: 'tests/test_a.py::test_b failed; \\::warning shown escaped\n'}))).toEqual([])
  })

  it('any change to the case folder: bytes, mode, mtime, a new file, a link retargeted; not a read', () => {
    const dir = freshDir()
    const c: RunCase = {runName: 'r', arg: {as: 'absolute'}, extra: null, cli: false, entries: [
      {type: 'file', path: 'run.log', content: {kind: 'pieces', pieces: 'abc\n'}, damage: []},
      {type: 'symlink', path: 'out', target: '<outside>/secret.log'},
    ]}
    const m = materialise(c, dir)
    const log = join(m.run, 'run.log')
    let before = hashTree(dir)
    readFileSync(log)
    expect(hashTree(dir)).toBe(before)
    const changes: (() => void)[] = [
      () => writeFileSync(log, 'abd\n'),
      () => chmodSync(log, 0o600),
      () => utimesSync(log, new Date(1), new Date(2)),
      () => writeFileSync(join(m.run, 'new'), ''),
      () => writeFileSync(join(m.outside, 'secret.log'), 'changed'),
      () => {
        rmSync(join(m.run, 'out'))
        writeFileSync(join(m.run, 'out'), '')
      },
    ]
    for (const change of changes) {
      change()
      const after = hashTree(dir)
      expect(after).not.toBe(before)
      before = after
    }
  })

  it('writes the case as modelled: hostile names as they are, links outside RUN, a FIFO; nothing outside its folder', () => {
    const dir = freshDir()
    const names = ['-v --json', 'a:b c', 'e\u0301\u{1F600}', 'new\nline', 'TASK-X-001']
    const c: RunCase = {runName: '-run: 😀', arg: {as: 'relative', dotSlash: false}, extra: null, cli: false, entries: [
      ...names.map((name) => ({type: 'file' as const, path: `d/${name}`, content: {kind: 'pieces' as const, pieces: name}, damage: []})),
      {type: 'file', path: 'd/TASK-X-001', content: {kind: 'pieces', pieces: 'replaced'}, damage: [{op: 'insert', at: 0, piece: {hex: '00ff'}}]},
      {type: 'symlink', path: 'up', target: '<outside>'},
      {type: 'fifo', path: 'pipe.log'},
      {type: 'file', path: 'd/TASK-X-001/under-a-file', content: {kind: 'pieces', pieces: 'x'}, damage: []},
    ]}
    const m = materialise(c, dir)
    expect(readdirSync(join(m.run, 'd')).sort()).toEqual([...names].sort())
    expect(readFileSync(join(m.run, 'd/TASK-X-001'))).toEqual(Buffer.from([0x00, 0xff, ...Buffer.from('replaced')]))
    expect(readlinkSync(join(m.run, 'up'))).toBe(m.outside)
    expect(statSync(join(m.run, 'pipe.log')).isFIFO()).toBe(true)
    expect(m.skipped).toEqual([expect.stringContaining('d/TASK-X-001/under-a-file')])
    expect(m.arg).toEqual({path: '-run: 😀', cwd: join(dir, 'r')})
    expect(readdirSync(dir).sort()).toEqual(['link', 'outside', 'r'])
  })

  it('a command that exits 3 or writes into RUN fails the case', async () => {
    const c: RunCase = {runName: 'r', arg: {as: 'absolute'}, extra: null, cli: false, entries: [{type: 'file', path: 'run.log', content: {kind: 'fixture', file: 'hostile-log/run.log'}, damage: []}]}
    const writes = async (argv: readonly string[]) => {
      writeFileSync(join(argv[1]!, 'run.log'), 'overwritten')
      return ok({stdout: report})
    }
    const crashes = async () => ok({exit: 3, stdout: '{"error": {}}', stderr: 'internal error: boom\n'})
    const options = {cli: null, runBuilt: async () => ok(), keep: false}
    const written = await checkCase(c, freshDir(), {...options, inProcess: writes})
    expect(written.failures).toContain('analyze --json: changed the files of the case (RUN, the folder outside it, or the link to it) on disk')
    const crashed = await checkCase(c, freshDir(), {...options, inProcess: crashes})
    expect(crashed.failures).toEqual([expect.stringContaining('analyze --json: exit 3'), expect.stringContaining('inspect --json: exit 3')])
  })

  it('the same seed gives the same cases', () => {
    const a = fc.sample(runCase({cliEvery: 20}), {seed: SEED, numRuns: 5})
    const b = fc.sample(runCase({cliEvery: 20}), {seed: SEED, numRuns: 5})
    expect(JSON.stringify(a)).toBe(JSON.stringify(b))
  })
})
