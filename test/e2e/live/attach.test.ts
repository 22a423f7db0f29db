import {spawn} from 'node:child_process'
import {closeSync, openSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {runCli} from '../../helpers/cli.js'
import {jsonEvents, removeTempDirs, simCommand, startCli, tempDir, waitFor} from './helpers.js'

afterAll(removeTempDirs)
afterEach(() => {
  process.exitCode = undefined
})

describe('live --attach', () => {
  it('follows a log another process is still writing, from before it exists to the end of the run', async () => {
    const dir = tempDir()
    const log = join(dir, 'build.log')
    const wt = join(dir, 'wt')
    const record = join(dir, 'rec')
    // live first: the log does not exist yet
    const live = startCli(['live', '--attach', '--log', log, '--worktree', wt, '--json', '--record', record, '--time-scale', '100'], {cwd: dir})
    // it has looked for the log and not found it: only now does the build begin writing it
    await waitFor(() => live.output().stdout.includes(`"message":${JSON.stringify(`waiting for ${log} to appear`)}`), 30_000, 'live to wait for the log')
    const fd = openSync(log, 'w')
    const [cmd, ...args] = simCommand('ac1a-run2-sft001', wt, 100)
    const writer = spawn(cmd!, args, {stdio: ['ignore', fd, fd]})
    closeSync(fd)
    const writerDone = new Promise<number | null>((r) => writer.on('close', r))
    const done = await live.done
    expect(await writerDone).toBe(0)
    expect(done.code, done.stderr).toBe(0)
    const events = jsonEvents(done.stdout)
    expect(events.find((e) => e.type === 'notice')?.message).toBe(`waiting for ${log} to appear`)
    expect(events.filter((e) => e.type === 'warning').map((e) => `${e.code}@${e.turn}`)).toEqual(['ZERO_OF_N_TEXT_MATCH_EMPTY@1'])
    expect(events.find((e) => e.type === 'outcome')).toMatchObject({taskId: 'TASK-SFT-001', outcome: 'unrecoverable_stall', turns: 3})
    // everything the writer wrote, in order, and the same analysis as analyze of the recording
    expect(readFileSync(join(record, 'run.log'))).toEqual(readFileSync(log))
    const analyze = await runCli(['analyze', record, '--json'])
    expect(`${JSON.stringify(events.at(-1)!.report, null, 2)}\n`).toBe(analyze.stdout)
  }, 60_000)
})
