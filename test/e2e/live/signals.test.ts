import {createHash} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {RecordingManifestV1Schema} from '../../../src/ingest/schemas/recording-manifest.schema.js'
import {runCli} from '../../helpers/cli.js'
import {jsonEvents, removeTempDirs, runCliProcess, simCommand, startCli, tempDir, waitFor} from './helpers.js'

afterAll(removeTempDirs)
afterEach(() => {
  process.exitCode = undefined
})

/** The recording is finished: its manifest lists every file with the right hash (a valid RUN). */
function expectFinishedRecording(record: string): ReturnType<typeof RecordingManifestV1Schema.parse> {
  const manifest = RecordingManifestV1Schema.parse(JSON.parse(readFileSync(join(record, 'guardkit-replay.json'), 'utf8')))
  expect(manifest.createdBy).toBe('live')
  expect(manifest.files.map((f) => f.path)).toContain('run.log')
  for (const f of manifest.files) expect(createHash('sha256').update(readFileSync(join(record, f.path))).digest('hex'), f.path).toBe(f.sha256)
  for (const v of manifest.versions ?? []) expect(createHash('sha256').update(readFileSync(join(record, v.file))).digest('hex'), v.file).toBe(v.sha256)
  return manifest
}

describe('live: Ctrl-C, crashes and commands that cannot start (real processes)', () => {
  it('Ctrl-C is forwarded to the command, which gets time to stop; the recording is finished; the exit code is the command\'s', async () => {
    const dir = tempDir()
    const record = join(dir, 'rec')
    const run = startCli(['live', '--json', '--record', record, '--', ...simCommand('db-003-timeout', join(dir, 'wt'), 100, ['--sigint-ms', '500'])], {cwd: dir})
    await waitFor(() => run.output().stdout.includes('"type":"turn"'), 30_000, 'the first turn')
    run.child.kill('SIGINT')
    const done = await run.done
    expect(done.code, done.stderr).toBe(130)
    const events = jsonEvents(done.stdout)
    expect(events.find((e) => e.type === 'stopping')?.reason).toMatch(/Ctrl-C/)
    expect(events.find((e) => e.type === 'exit')).toMatchObject({code: 130, detail: 'the command exited with code 130'})
    expect(events.at(-1)?.type).toBe('report')
    // what the command printed while stopping is in the recording too
    expect(readFileSync(join(record, 'run.log'), 'utf8')).toContain('⚠ Interrupted: cancelling AutoBuild (state saved)')
    expectFinishedRecording(record)
    const analyze = await runCli(['analyze', record, '--json'])
    expect(analyze.error).toBeUndefined()
    expect(JSON.parse(analyze.stdout).tasks.map((t: {taskId: string}) => t.taskId)).toContain('TASK-DB-001')
  }, 60_000)

  it('a second Ctrl-C sends SIGTERM to a command that takes too long to stop', async () => {
    const dir = tempDir()
    const record = join(dir, 'rec')
    const run = startCli(['live', '--json', '--record', record, '--', ...simCommand('db-003-timeout', join(dir, 'wt'), 100, ['--sigint-ms', '20000'])], {cwd: dir})
    await waitFor(() => run.output().stdout.includes('"type":"artifact"'), 30_000, 'the first artifact')
    run.child.kill('SIGINT')
    await waitFor(() => run.output().stdout.includes('"type":"stopping"'), 10_000, 'stopping')
    run.child.kill('SIGINT')
    const done = await run.done
    expect(done.code).toBe(143)
    expect(jsonEvents(done.stdout).find((e) => e.type === 'exit')?.detail).toBe('the command exited with code 143')
    expectFinishedRecording(record)
  }, 60_000)

  it('a command that crashes: a clear message, its exit code, an ORCHESTRATION_CRASH warning, and a valid partial recording', async () => {
    const dir = tempDir()
    const record = join(dir, 'rec')
    const done = await runCliProcess(['live', '--no-dashboard', '--record', record, '--', ...simCommand('ac1a-run2-sft001', join(dir, 'wt'), 100, ['--crash-after-line', '150'])], {cwd: dir})
    expect(done.code).toBe(1)
    expect(done.stderr).toContain('[guardkit-replay] exited: the command exited with code 1')
    expect(done.stderr).toContain("ValueError: 'partial' is not a valid CriterionStatus")
    // GuardKit's crash record (turn 2 was running) is an orchestration error
    expect(done.stderr).toMatch(/\[guardkit-replay\] WARNING ORCHESTRATION_CRASH TASK-SFT-001 turn 2: /)
    const log = readFileSync(join(record, 'run.log'), 'utf8')
    expect(log).toContain('Traceback (most recent call last):')
    expect(log).toContain("Orchestration failed for TASK-SFT-001: 'partial' is not a valid CriterionStatus")
    const manifest = expectFinishedRecording(record)
    expect(manifest.files.map((f) => f.path)).toContain('.guardkit/autobuild/TASK-SFT-001/coach_turn_1.json')
    const analyze = await runCli(['analyze', record, '--json'])
    expect(analyze.error).toBeUndefined()
    const task = JSON.parse(analyze.stdout).tasks.find((t: {taskId: string}) => t.taskId === 'TASK-SFT-001')
    expect(task.recorded.turns.length).toBeGreaterThanOrEqual(1)
    expect(task.findings.map((f: {code: string}) => f.code)).toContain('ORCHESTRATION_CRASH')
  }, 60_000)

  it('a command killed by a signal exits 128 + the signal number, and says so', async () => {
    const dir = tempDir()
    const record = join(dir, 'rec')
    const done = await runCliProcess(['live', '--json', '--record', record, '--', ...simCommand('ac1a-run2-sft001', join(dir, 'wt'), 200, ['--kill-after-line', '120'])], {cwd: dir})
    expect(done.code).toBe(137)
    expect(jsonEvents(done.stdout).find((e) => e.type === 'exit')?.detail).toBe('the command was ended by SIGKILL (exit code 137)')
    expectFinishedRecording(record)
  }, 60_000)

  it('a command that cannot start: the reason, exit 127, and no recording left behind (an empty run.log would read as a run)', async () => {
    const dir = tempDir()
    const record = join(dir, 'rec')
    const done = await runCliProcess(['live', '--no-dashboard', '--record', record, '--', join(dir, 'no-such-guardkit'), 'autobuild', 'feature', 'FEAT-X'], {cwd: dir})
    expect(done.code).toBe(127)
    expect(done.stderr).toContain(`cannot start ${join(dir, 'no-such-guardkit')}: command not found (ENOENT)`)
    expect(done.stderr).toContain(`the command could not start: no recording kept (${record} removed)`)
    expect(existsSync(record)).toBe(false)
  }, 60_000)
})
