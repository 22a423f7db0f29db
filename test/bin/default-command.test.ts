import {describe, expect, it} from 'vitest'
// @ts-expect-error plain JS module without types
import {withDefaultCommand, TOP_LEVEL} from '../../bin/argv.js'
import {Config} from '@oclif/core'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

describe('default command', () => {
  it('runs analyze when the first word is not a command', () => {
    expect(withDefaultCommand(['runs/2024-01-01T10:00'])).toEqual(['analyze', 'runs/2024-01-01T10:00'])
    expect(withDefaultCommand(['run_2/', '--json'])).toEqual(['analyze', 'run_2/', '--json'])
  })
  it('reads a log from stdin with -', () => {
    expect(withDefaultCommand(['-'])).toEqual(['analyze', '-'])
  })
  it('leaves commands, flags and the bare call alone', () => {
    expect(withDefaultCommand([])).toEqual([])
    expect(withDefaultCommand(['--help'])).toEqual(['--help'])
    expect(withDefaultCommand(['gate', 'x'])).toEqual(['gate', 'x'])
  })
  it('leaves a mistyped command to oclif, which suggests the command meant, unless a file of that name exists', () => {
    const none = () => false
    expect(withDefaultCommand(['gaet', 'x'], none)).toEqual(['gaet', 'x'])
    expect(withDefaultCommand(['explian', 'run.log', '--task', 'X'], none)).toEqual(['explian', 'run.log', '--task', 'X'])
    expect(withDefaultCommand(['insepct'], none)).toEqual(['insepct'])
    // a run folder that happens to be named like a command's typo is a run
    expect(withDefaultCommand(['gaet'], (p: string) => p === 'gaet')).toEqual(['analyze', 'gaet'])
    // a word far from every command, or a path, is RUN (analyze then says when it does not exist)
    expect(withDefaultCommand(['feature-x'], none)).toEqual(['analyze', 'feature-x'])
    expect(withDefaultCommand(['gate.log'], none)).toEqual(['analyze', 'gate.log'])
  })
  it('takes flags before RUN or before the command', () => {
    const none = () => false
    expect(withDefaultCommand(['--json', 'run.log'], none)).toEqual(['analyze', '--json', 'run.log'])
    expect(withDefaultCommand(['--json', 'explain', 'run.log', '--task', 'X'], none)).toEqual(['explain', '--json', 'run.log', '--task', 'X'])
    expect(withDefaultCommand(['-v', '--profile', 'legacy', 'run.log'], none)).toEqual(['analyze', '-v', '--profile', 'legacy', 'run.log'])
    // CMD after -- is never read: `live` there is the build's argument
    expect(withDefaultCommand(['--json', '--', 'live'], none)).toEqual(['analyze', '--json', '--', 'live'])
    expect(withDefaultCommand(['-h'], none)).toEqual(['-h'])
  })
  it('reads `version` as --version, unless a run of that name exists', () => {
    expect(withDefaultCommand(['version'], () => false)).toEqual(['--version'])
    expect(withDefaultCommand(['version'], () => true)).toEqual(['analyze', 'version'])
  })
  it('knows every command oclif knows', async () => {
    const config = await Config.load({root})
    const ids = new Set([...config.commands.map((c) => c.id.split(':')[0]), ...config.topics.map((t) => t.name.split(':')[0])])
    for (const id of ids) expect(TOP_LEVEL).toContain(id)
  })
})
