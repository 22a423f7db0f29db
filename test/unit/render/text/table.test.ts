import stringWidth from 'string-width'
import {describe, expect, it} from 'vitest'
import {fitWidths, renderTable, type Column} from '../../../../src/render/text/table.js'
import {fitToWidth, shellLines} from '../../../../src/render/text/layout.js'
import {describeSource, nameChangeIds} from '../../../../src/render/text/change-names.js'

const columns: Column[] = [
  {header: 'turn', align: 'right'},
  {header: 'feedback', flex: 'wrap', min: 10},
  {header: 'sig'},
  {header: 'window', flex: 'wrap', min: 12, stack: 1},
]
const rows = [
  ['1', 'Not all acceptance criteria met: the Coach verified none of the six', 'c1ddd473', '[c1ddd473 ce304cb7 c1ddd473] → FIRES'],
  ['12', 'Coverage threshold not met', 'f696a94c', ''],
]

describe('tables fit the width: the widest free-text column shrinks and wraps, never the whole row', () => {
  it('keeps natural widths when they fit, and every column whole', () => {
    const out = renderTable(columns, rows, {width: 200})
    expect(out[0]).toBe('  turn  feedback                                                             sig       window')
    expect(out[1]).toMatch(/^ {5}1 {2}Not all acceptance criteria met: the Coach verified none of the six {2}c1ddd473 {2}\[c1ddd473 ce304cb7 c1ddd473\] → FIRES$/)
    expect(out).toHaveLength(3)
  })

  it('shrinks the widest flexible column first, wrapping its text under itself', () => {
    const out = renderTable(columns, rows, {width: 95})
    for (const l of out) expect(stringWidth(l)).toBeLessThanOrEqual(95)
    // feedback (widest) wrapped; the window, narrower than the level feedback came down to, kept whole
    expect(out.some((l) => l.endsWith('[c1ddd473 ce304cb7 c1ddd473] → FIRES'))).toBe(true)
    const first = out.findIndex((l) => /^ {5}1 {2}Not all/.test(l))
    expect(out[first + 1]).toMatch(/^ {8}\S/)
  })

  it('moves a stackable column under its row when the flexible ones at their narrowest are not enough', () => {
    const out = renderTable(columns, rows, {width: 40})
    for (const l of out) expect(stringWidth(l)).toBeLessThanOrEqual(40)
    expect(out[0]!.trim()).toBe('turn  feedback                sig')
    expect(out).toContain('      window: [c1ddd473 ce304cb7')
    // a row without a window value gets no stacked line
    expect(out.filter((l) => l.includes('window:'))).toHaveLength(1)
  })

  it('counts display columns: a CJK cell pads to the same width as an ASCII one', () => {
    const out = renderTable([{header: 'task'}, {header: 'x'}], [['数据-003', 'a'], ['DB-0003', 'b']], {width: 80, noHeader: true})
    expect(out.map((l) => l.indexOf('a') === -1 ? stringWidth(l.slice(0, l.indexOf('b'))) : stringWidth(l.slice(0, l.indexOf('a'))))).toEqual([12, 12])
  })

  it('fitWidths: brings the widest flexible columns down together, never below their minimum', () => {
    expect(fitWidths([{natural: 50, min: 10, flex: true}, {natural: 30, min: 10, flex: true}, {natural: 8, min: 8, flex: false}], 68)).toEqual([30, 30, 8])
    expect(fitWidths([{natural: 50, min: 10, flex: true}, {natural: 30, min: 10, flex: true}, {natural: 8, min: 8, flex: false}], 10)).toEqual([10, 10, 8])
    expect(fitWidths([{natural: 5, min: 5, flex: false}], Number.POSITIVE_INFINITY)).toEqual([5])
  })
})

describe('long lines on a terminal', () => {
  it('a shell command breaks between its words with a line continuation, a flag kept with its value', () => {
    const lines = shellLines('  ', 'guardkit-replay explain ../runs/2026-02-15/logs/run_1.log --task TASK-SFT-001 --turn 8 --profile pre-acr', 60)
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(60)
    expect(lines.slice(0, -1).every((l) => l.endsWith(' \\'))).toBe(true)
    expect(lines.join('\n').replace(/ \\\n +/g, ' ').trim()).toBe('guardkit-replay explain ../runs/2026-02-15/logs/run_1.log --task TASK-SFT-001 --turn 8 --profile pre-acr')
    expect(lines.some((l) => /--task$|--turn$|--profile$/.test(l.replace(/ \\$/, '')))).toBe(false)
    expect(shellLines('  ', 'guardkit-replay run.log --verbose', 60, 'every turn')).toEqual(['  guardkit-replay run.log --verbose   every turn'])
  })

  it('fitToWidth wraps a line that is still too wide under its own indentation, and leaves the rest alone', () => {
    const text = `short\n    ${'word '.repeat(20).trim()}`
    const out = fitToWidth(text, 40).split('\n')
    expect(out[0]).toBe('short')
    for (const l of out) expect(stringWidth(l)).toBeLessThanOrEqual(40)
    expect(out.slice(2).every((l) => l.startsWith('      word'))).toBe(true)
    expect(fitToWidth(text, Number.POSITIVE_INFINITY)).toBe(text)
  })
})

describe('logic change ids carry their name', () => {
  it('a difference row is named by the flag it belongs to (docs/logic-changes.md)', () => {
    expect(nameChangeIds('without D9 the promises are lost')).toBe('without recoverAgentPromises (D9) the promises are lost')
    expect(nameChangeIds('no such row D999')).toBe('no such row D999')
    expect(describeSource('§7.3 (D26)')).toMatch(/^docs\/guardkit-logic\.md §7\.3; logic changes? [\w, ]+ \(D26\)$/)
    expect(describeSource('§8.4')).toBe('docs/guardkit-logic.md §8.4')
  })
})
