import {appendFileSync, renameSync, truncateSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {tailFile} from '../../../src/live/tail.js'
import {removeTempDirs, tempDir, waitFor} from '../../helpers/temp-dirs.js'

afterAll(removeTempDirs)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('tailFile', () => {
  it('follows appends, a file cut shorter (copytruncate) and a file replaced under its name (rename rotation)', async () => {
    const dir = tempDir()
    const path = join(dir, 'run.log')
    writeFileSync(path, 'one\n')
    const chunks: Buffer[] = []
    const events: string[] = []
    const tail = tailFile(path, {onData: (c) => chunks.push(c), onEvent: (e) => events.push(e.kind), pollMs: 20})
    const text = () => Buffer.concat(chunks).toString('utf8')
    await waitFor(() => text() === 'one\n', 10_000, 'the first line')
    appendFileSync(path, 'two\n')
    await waitFor(() => text() === 'one\ntwo\n', 10_000, 'an append')
    // copytruncate: the file is cut to nothing and written again from its start
    truncateSync(path, 0)
    await sleep(100)
    appendFileSync(path, 'three\n')
    await waitFor(() => text().endsWith('three\n'), 10_000, 'the line after truncation')
    // rename rotation: the writer still finishes a line in the old file, then a new file appears
    renameSync(path, `${path}.1`)
    appendFileSync(`${path}.1`, 'four\n')
    await sleep(100)
    writeFileSync(path, 'five\n')
    await waitFor(() => text().endsWith('five\n'), 10_000, 'the new file')
    await tail.stop()
    expect(text()).toBe('one\ntwo\nthree\nfour\nfive\n')
    expect(events).toEqual(['opened', 'truncated', 'rotated', 'opened'])
  })
})
