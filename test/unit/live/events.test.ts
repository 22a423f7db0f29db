import {describe, expect, it} from 'vitest'
import {formatEventLine} from '../../../src/live/events.js'

describe('live: the plain start line', () => {
  const start = {type: 'start', mode: 'spawn', command: ['guardkit', 'autobuild', 'feature', 'FEAT-X'], log: null, record: 'rec'} as const

  it('names the pid of a command that started', () => {
    expect(formatEventLine({...start, pid: 4242})).toBe('started guardkit autobuild feature FEAT-X (pid 4242); recording to rec')
  })

  it('does not claim a start, nor print a placeholder pid, when the command got no process', () => {
    const line = formatEventLine({...start, pid: null})
    expect(line).toBe('starting guardkit autobuild feature FEAT-X; recording to rec')
    expect(line).not.toContain('pid')
  })
})
