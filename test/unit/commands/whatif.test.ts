import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterEach, describe, expect, it} from 'vitest'
import {ReportSchema} from '../../../src/render/json/report.js'
import {runCli} from '../../helpers/cli.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const db003 = join(root, 'fixtures/runs/db-003-timeout')

afterEach(() => {
  process.exitCode = undefined
})

describe('whatif', () => {
  it('finds the one change that flips TASK-DB-003 and states the search bound', async () => {
    const {stdout, error} = await runCli(['whatif', db003, '--task', 'TASK-DB-003'])
    expect(error).toBeUndefined()
    expect(stdout).toMatch(/baseline +as-run:[0-9a-f]{8} → cancelled \(recorded\)/)
    expect(stdout).toMatch(/\n {4}stallNormalize +→ unrecoverable_stall \(differs from turn 5\)/)
    expect(stdout).toMatch(/searched +\d+ changes between/)
  })

  it('--json: the document with whatif per task', async () => {
    const {stdout, error} = await runCli(['whatif', db003, '--json'])
    expect(error).toBeUndefined()
    const doc = ReportSchema.parse(JSON.parse(stdout))
    expect(doc.focus).toMatchObject({command: 'whatif', taskId: null})
    const db3 = doc.tasks.find((t) => t.taskId === 'TASK-DB-003')!
    expect(db3.whatif?.flips).toContainEqual(expect.objectContaining({flags: ['stallNormalize'], outcome: 'unrecoverable_stall', changesAtTurn: 5}))
  })
})
