import {describe, expect, it} from 'vitest'
import {createGateProgress} from '../../../../src/services/gate/progress.js'

function fake(isTTY: boolean) {
  const written: string[] = []
  return {written, stream: {isTTY, columns: 80, write: (s: string) => written.push(s)} as unknown as NodeJS.WriteStream}
}

describe('gate progress on stderr', () => {
  it('not a terminal (CI logs): a line every interval, the first only after one, and a last one when any was shown', () => {
    const {written, stream} = fake(false)
    let now = 0
    const p = createGateProgress({stream, env: {CI: 'true'}, now: () => now, intervalMs: 10_000})
    p.start(1000)
    now = 4000
    p.update(100, 0)
    expect(written).toEqual([])
    now = 10_000
    p.update(250, 2)
    now = 15_000
    p.update(400, 2)
    now = 20_500
    p.update(520, 3)
    now = 31_000
    p.done()
    expect(written).toEqual([
      'gate: 250/1000 runs (25%), 2 failing tasks, 10 s\n',
      'gate: 520/1000 runs (52%), 3 failing tasks, 21 s\n',
      'gate: 1000/1000 runs done in 31 s\n',
    ])
  })

  it('a short gate prints nothing', () => {
    const {written, stream} = fake(false)
    let now = 0
    const p = createGateProgress({stream, env: {}, now: () => now})
    p.start(11)
    now = 900
    p.update(11, 0)
    p.done()
    expect(written).toEqual([])
  })

  it('on a terminal: a bar redrawn in place, at most every 100 ms, cleared at the end', () => {
    const {written, stream} = fake(true)
    let now = 0
    const p = createGateProgress({stream, env: {}, now: () => now})
    p.start(4)
    now = 150
    p.update(1, 0)
    now = 180
    p.update(2, 1)
    now = 400
    p.update(4, 1)
    p.done()
    expect(written).toEqual([
      '\r\x1b[2Kgate [██████░░░░░░░░░░░░░░░░░░] 1/4 runs · 0 failing · 0 s',
      '\r\x1b[2Kgate [████████████████████████] 4/4 runs · 1 failing · 0 s',
      '\r\x1b[2K',
    ])
  })

  it('--no-progress: nothing', () => {
    const {written, stream} = fake(true)
    const p = createGateProgress({stream, env: {}, enabled: false})
    p.start(4)
    p.update(4, 0)
    p.done()
    expect(written).toEqual([])
  })
})
