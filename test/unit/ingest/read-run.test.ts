import {describe, expect, it} from 'vitest'
import type {FsPort} from '../../../src/ingest/index.js'
import {DEFAULT_LIMITS, readRun} from '../../../src/ingest/index.js'
import {createMemoryPort} from '../../helpers/memory-port.js'

/**
 * A log given as a path is read to its end, however large (docs/ingest.md "Limits"): it was once cut at
 * 256 MiB with only a warning in the report. The log here is 260 MiB, streamed by the port in 1 MiB
 * chunks of the same bytes, never held: its one AutoBuild run starts in the first chunk and its task's
 * outcome is logged after the old cut.
 */
const LOG = '/run/build.log'
const START = 'INFO:guardkit.cli.autobuild:Starting feature orchestration\nINFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-BIG (resume=False)\n'
const END = 'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-BIG, decision=approved, turns=1\n'
const CHUNK = 2 ** 20
const CHUNKS = 260

/** Console filler that names no task: lines of 64 KiB. */
const filler = new TextEncoder().encode(`${'.'.repeat(65535)}\n`.repeat(CHUNK / 65536))

function largeLogPort(inner: FsPort): FsPort {
  return {
    ...inner,
    async readChunks(path, maxBytes, onChunk) {
      if (path !== LOG) return inner.readChunks(path, maxBytes, onChunk)
      const parts = [new TextEncoder().encode(START), ...Array.from({length: CHUNKS}, () => filler), new TextEncoder().encode(END)]
      let total = 0
      let truncated = false
      for (const part of parts) {
        const keep = Math.min(part.length, maxBytes - total)
        if (keep < part.length) truncated = true
        if (keep > 0) onChunk(part.subarray(0, keep))
        total += keep
        if (truncated) break
      }
      const stat = {kind: 'file' as const, size: START.length + CHUNKS * CHUNK + END.length, mtimeMs: 0}
      return {bytes: new Uint8Array(0), truncated, before: stat, after: stat}
    },
    within: (root) => largeLogPort(inner.within(root)),
  }
}

describe('readRun of a log given as a path', () => {
  it('reads a 260 MiB log to its end: the outcome logged after 256 MiB is there, and no size issue', async () => {
    const port = largeLogPort(createMemoryPort(new Map([['/run', {kind: 'dir'}], [LOG, {kind: 'file', bytes: new TextEncoder().encode(START)}]])))
    const {run} = await readRun(port, '/run')
    expect(run.tasks.map((t) => [t.taskId, t.outcome?.value])).toEqual([['TASK-BIG', 'approved']])
    expect(run.ingestIssues.filter((i) => i.code === 'too-large')).toEqual([])
  }, 60_000)

  it('reads up to a limit the caller sets, and says so', async () => {
    const port = largeLogPort(createMemoryPort(new Map([['/run', {kind: 'dir'}], [LOG, {kind: 'file', bytes: new TextEncoder().encode(START)}]])))
    const {run} = await readRun(port, '/run', {limits: {...DEFAULT_LIMITS, maxLogBytes: 8 * CHUNK}})
    expect(run.tasks.map((t) => [t.taskId, t.outcome?.value ?? null])).toEqual([['TASK-BIG', null]])
    expect(run.ingestIssues.filter((i) => i.code === 'too-large').map((i) => i.message)).toEqual(['the file is larger than 8 MiB: only its first 8 MiB were read'])
  })
})
