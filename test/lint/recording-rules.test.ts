import {describe, expect, it} from 'vitest'
import {lintPlanted} from './lint-planted.js'

/** The lint keeps the recording layer where docs/architecture.md puts it, and redaction pure. */
async function rulesFired(path: string, code: string): Promise<string[]> {
  return (await lintPlanted(path, code)).map((m) => m.rule)
}

describe('the recording layer and redaction (eslint.config.js)', () => {
  it('services and live may import recording; recording may import ingest', async () => {
    const use = "import {RecordingWriter} from '../recording/writer.js'\nexport const w = RecordingWriter\n"
    expect(await rulesFired('src/services/planted.ts', use)).toEqual([])
    expect(await rulesFired('src/live/planted.ts', use)).toEqual([])
    expect(await rulesFired('src/recording/planted.ts', "import {discoverRun} from '../ingest/index.js'\nexport const d = discoverRun\n")).toEqual([])
  })

  it('recording may not import services, explain or render; ingest may not import recording', async () => {
    expect(await rulesFired('src/recording/planted.ts', "import {runRecord} from '../services/record.js'\nexport const r = runRecord\n")).toContain('no-restricted-imports')
    expect(await rulesFired('src/recording/planted.ts', "import type {AnalysisReport} from '../explain/analysis.js'\nexport type A = AnalysisReport\n")).toContain('no-restricted-imports')
    expect(await rulesFired('src/ingest/planted.ts', "import {RecordingWriter} from '../recording/writer.js'\nexport const w = RecordingWriter\n")).toContain('no-restricted-imports')
  })

  it('redaction stays pure: no fs, no process', async () => {
    expect(await rulesFired('src/shared/redact-planted.ts', "import {readFileSync} from 'node:fs'\nexport const x = readFileSync\n")).toContain('no-restricted-imports')
    expect(await rulesFired('src/shared/redact.ts', 'export const home = process.env.HOME\n')).toContain('no-restricted-globals')
  })
})
