import {mkdirSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {runCli} from '../../helpers/cli.js'
import {removeTempDirs, tempDir} from '../../helpers/temp-dirs.js'

afterAll(removeTempDirs)
afterEach(() => {
  process.exitCode = undefined
})

describe('live: usage errors exit 2 before anything runs', () => {
  const cases: {name: string; args: () => string[]; message: RegExp}[] = [
    {name: 'no command and no --attach', args: () => ['live'], message: /Give the command to run after --, or --attach --log FILE\./},
    {name: '--attach without --log', args: () => ['live', '--attach', '--worktree', '.'], message: /--attach needs --log FILE/},
    {name: '--attach with a command', args: () => ['live', '--attach', '--log', 'x.log', '--', 'guardkit'], message: /--attach follows a running build: give --log FILE, not a command/},
    {name: '--log without --attach', args: () => ['live', '--log', 'x.log', '--', 'guardkit'], message: /--log is for --attach/},
    {name: 'an unknown --stop-on code', args: () => ['live', '--stop-on', 'ZERO_OF_N_TEXT_MATCH_EMPTY,NOPE', '--', 'guardkit'], message: /--stop-on NOPE: not a code live warns about, nor a root-cause category\.\nCodes: ZERO_OF_N_TEXT_MATCH_EMPTY, PROMISES_LOST_ACROSS_TURNS.*Categories \(docs\/root-causes\.md\): model-api, agent-budget/s},
    {name: '--stop-on in attach mode', args: () => ['live', '--attach', '--log', 'x.log', '--stop-on', 'INFRA_TEST_FAILURE'], message: /--stop-on needs a build live started/},
    {name: 'a --record directory that is not empty', args: () => {
      const dir = tempDir()
      mkdirSync(join(dir, 'rec'))
      writeFileSync(join(dir, 'rec', 'old.txt'), 'x')
      return ['live', '--record', join(dir, 'rec'), '--', 'guardkit']
    }, message: /--record .*rec: the directory is not empty\./},
    {name: 'a --record directory inside the watched worktree (live never writes there)', args: () => {
      const dir = tempDir()
      return ['live', '--worktree', dir, '--record', join(dir, 'rec'), '--', 'guardkit']
    }, message: /--record .*rec: inside the watched worktree .*; live never writes there\./},
    {name: 'an unknown profile', args: () => ['live', '--profile', 'nope', '--', 'guardkit'], message: /nope/},
  ]
  for (const c of cases) {
    it(c.name, async () => {
      const {error} = await runCli(c.args())
      expect(error?.oclif?.exit).toBe(2)
      expect(error?.message).toMatch(c.message)
    })
  }

  it('a refused run leaves nothing behind: no default recording folder', async () => {
    const made = () => readdirSync(process.cwd()).filter((n) => n.startsWith('guardkit-replay-live-'))
    const before = made()
    const {error} = await runCli(['live', '--profile', 'nope', '--', 'guardkit'])
    expect(error?.oclif?.exit).toBe(2)
    expect(made()).toEqual(before)
  })

  it('--help documents the flags, the warnings and the keys', async () => {
    const {stdout} = await runCli(['live', '--help'])
    for (const text of ['live [FLAGS] -- CMD [ARGS...]', 'live --attach --log FILE', '--record', '--worktree', '--attach', '--log', '--stop-on', '--grace', '--json', 'ZERO_OF_N_TEXT_MATCH_EMPTY', 'q quit']) expect(stdout).toContain(text)
    expect(stdout).not.toContain('--time-scale')
  })
})
