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
  it('knows every command oclif knows', async () => {
    const config = await Config.load({root})
    const ids = new Set([...config.commands.map((c) => c.id.split(':')[0]), ...config.topics.map((t) => t.name.split(':')[0])])
    for (const id of ids) expect(TOP_LEVEL).toContain(id)
  })
})
