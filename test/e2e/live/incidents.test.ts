import {afterAll, describe, expect, it} from 'vitest'
import {removeTempDirs} from './helpers.js'
import {checkIncident, TABLE} from './incident-table.js'

afterAll(removeTempDirs)

// Concurrent: each run mostly waits on its simulator (at most 2 at a time, see runIncident); the
// timeout includes the wait for a slot, hence generous.
describe.concurrent('live over simulated seed incidents: warnings by turn (incident-table.ts), final report = analyze --json', () => {
  for (const {incident} of TABLE) {
    it(
      incident,
      async () => {
        // checkIncident asserts the table, the order of warnings and outcomes, and the report against analyze
        await expect(checkIncident(incident)).resolves.toBeUndefined()
      },
      300_000,
    )
  }
})
