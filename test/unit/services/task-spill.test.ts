import {describe, expect, it} from 'vitest'
import type {TaskRun} from '../../../src/model/run-record.js'
import {createTaskSpill} from '../../../src/services/task-spill.js'

/** Stand-ins with what serialisation must keep: key order, undefined, nested arrays, non-ASCII text. */
function task(attempt: number, id: string): TaskRun {
  return {taskId: id, attempt, mode: undefined, turns: [{turn: 1, note: 'é ✓ 𝄞'}], events: [], outcome: null} as unknown as TaskRun
}

describe('the task spill', () => {
  it('gives back each attempt\'s task runs as they were, from memory', () => {
    const spill = createTaskSpill()
    spill.add(1, [task(1, 'TASK-A'), task(1, 'TASK-B')])
    spill.add(2, [])
    expect(spill.spilledBytes).toBe(0)
    expect(spill.taskCount).toBe(2)
    expect(spill.take(1)).toEqual([task(1, 'TASK-A'), task(1, 'TASK-B')])
    expect(spill.take(1)).toEqual([])
    expect(spill.take(2)).toEqual([])
    spill.close()
  })

  it('moves to a file once memory is full, and reads every attempt back whole', () => {
    const spill = createTaskSpill(64)
    const all = Array.from({length: 5}, (_, i) => [task(i + 1, `TASK-${i}`), task(i + 1, `TASK-${i}b`)])
    all.forEach((tasks, i) => spill.add(i + 1, tasks))
    expect(spill.spilledBytes).toBeGreaterThan(64)
    for (const [i, tasks] of all.entries()) {
      const back = spill.take(i + 1)
      expect(back).toEqual(tasks)
      expect(Object.keys(back[0]!)).toEqual(Object.keys(tasks[0]!))
      expect('mode' in back[0]!).toBe(true)
    }
    spill.close()
  })
})
