import {mkdir, rename, symlink, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {discoverRun} from '../../../../src/ingest/discover.js'
import {NOT_REGULAR, OUTSIDE_ROOT} from '../../../../src/ingest/fs/file-port.js'
import {createNodeFilePort} from '../../../../src/ingest/fs/node-file-port.js'
import {isInside, openInputFile, openInputFileSync} from '../../../../src/ingest/fs/safe-open.js'
import {createSyncFilePort} from '../../../../src/ingest/fs/sync-file-port.js'
import {loadRun} from '../../../../src/services/load-run.js'
import {plantedTrees} from '../../../helpers/special-files.js'

// The one way input files are opened (docs/security.md): regular files only, never blocking, and with a
// root only when the open file really lies inside it, checked on the handle (a path swapped after a
// check proves nothing).

const SECRET = 'root:$6$not-for-the-report:19000:0:99999:7:::\n'
const LOG = 'INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-X (max_turns=5)\nINFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-X-001 (resume=False)\nINFO:guardkit.orchestrator.autobuild:Executing turn 1/5\n'

const {tree, fifo, cleanup} = plantedTrees()
afterEach(cleanup)

async function readAll(path: string, root: string | null): Promise<string> {
  const {handle} = await openInputFile(path, root)
  try {
    return (await handle.readFile()).toString('utf8')
  } finally {
    await handle.close()
  }
}

describe('openInputFile', () => {
  it('reads a regular file inside the root, and one reached through a link that stays inside', async () => {
    const outside = await tree({'secret.txt': SECRET})
    const root = await tree({'a/run.log': LOG, 'alias.log': {symlink: 'a/run.log'}, 'out.log': {symlink: join(outside, 'secret.txt')}})
    expect(await readAll(join(root, 'a/run.log'), root)).toBe(LOG)
    expect(await readAll(join(root, 'alias.log'), root)).toBe(LOG)
    await expect(openInputFile(join(root, 'out.log'), root)).rejects.toMatchObject({code: OUTSIDE_ROOT})
    // without a root (a file the user named), a link is followed as the shell would
    expect(await readAll(join(root, 'out.log'), null)).toBe(SECRET)
  })

  it('refuses a file whose folder was swapped for a link out of the root after it was found', async () => {
    const outside = await tree({'TASK-A-001/player_turn_1.json': SECRET})
    const root = await tree({'.guardkit/autobuild/TASK-A-001/player_turn_1.json': '{}'})
    const path = join(root, '.guardkit/autobuild/TASK-A-001/player_turn_1.json')
    expect(await readAll(path, root)).toBe('{}')
    // the path is the same; only a folder on it is now a link (O_NOFOLLOW guards the last component only)
    await rename(join(root, '.guardkit/autobuild/TASK-A-001'), join(root, 'moved'))
    await symlink(join(outside, 'TASK-A-001'), join(root, '.guardkit/autobuild/TASK-A-001'))
    await expect(openInputFile(path, root)).rejects.toMatchObject({code: OUTSIDE_ROOT})
    expect(() => openInputFileSync(path, root)).toThrow(expect.objectContaining({code: OUTSIDE_ROOT}))
  })

  it('never opens a FIFO (it would wait for a writer), a device or a folder', async () => {
    const root = await tree({dir: {dir: true}})
    fifo(join(root, 'pipe.json'))
    await expect(openInputFile(join(root, 'pipe.json'), root)).rejects.toMatchObject({code: NOT_REGULAR})
    await expect(openInputFile(join(root, 'pipe.json'), null)).rejects.toMatchObject({code: NOT_REGULAR})
    await expect(openInputFile('/dev/zero', null)).rejects.toMatchObject({code: NOT_REGULAR})
    await expect(openInputFile(join(root, 'dir'), null)).rejects.toMatchObject({code: 'EISDIR'})
    expect(() => openInputFileSync(join(root, 'pipe.json'), root)).toThrow(expect.objectContaining({code: NOT_REGULAR}))
  })

  it('a link to a FIFO or a device is refused like the FIFO or device itself', async () => {
    const root = await tree({'zero.log': {symlink: '/dev/zero'}})
    fifo(join(root, 'pipe'))
    await symlink('pipe', join(root, 'to-pipe.log'))
    await expect(openInputFile(join(root, 'to-pipe.log'), root)).rejects.toMatchObject({code: NOT_REGULAR})
    await expect(openInputFile(join(root, 'zero.log'), null)).rejects.toMatchObject({code: NOT_REGULAR})
    await expect(openInputFile(join(root, 'zero.log'), root)).rejects.toMatchObject({code: OUTSIDE_ROOT})
  })

  it('inside means the root or below it, by path segments', () => {
    expect(isInside('/r/run', '/r/run')).toBe(true)
    expect(isInside('/r/run', '/r/run/a/b')).toBe(true)
    expect(isInside('/r/run', '/r/run/..foo')).toBe(true)
    expect(isInside('/r/run', '/r/run-2/a')).toBe(false)
    expect(isInside('/r/run', '/r')).toBe(false)
    expect(isInside('/r/run', '/etc/shadow')).toBe(false)
  })
})

describe('the file ports confined to RUN', () => {
  it.each([
    ['node', createNodeFilePort()],
    ['sync', createSyncFilePort()],
  ])('the %s port confined to a root refuses what lies outside it', async (_name, port) => {
    const outside = await tree({'secret.txt': SECRET})
    const root = await tree({'sub/x.log': LOG})
    await symlink(outside, join(root, 'away'))
    const confined = port.within(root)
    expect(Buffer.from((await confined.readFile(join(root, 'sub/x.log'), 1 << 20)).bytes).toString()).toBe(LOG)
    await expect(confined.readFile(join(root, 'away/secret.txt'), 1 << 20)).rejects.toMatchObject({code: OUTSIDE_ROOT})
  })

  it('a recording manifest that lists a file through a folder linked out of RUN: the file is never read', async () => {
    const outside = await tree({'shadow.log': SECRET + LOG})
    const root = await tree({
      'guardkit-replay.json': JSON.stringify({format: 'guardkit-replay/recording', formatVersion: 1, tool: {name: 'guardkit-replay', version: '0.1.0'},
        files: [{path: 'etc/shadow.log', sha256: '0'.repeat(64)}], logs: ['etc/shadow.log']}),
    })
    await mkdir(join(root, 'x'))
    await symlink(outside, join(root, 'etc'))
    const run = await loadRun(root)
    expect(run.logs).toEqual([])
    expect(JSON.stringify(run)).not.toContain('not-for-the-report')
    expect(run.ingestIssues).toContainEqual(expect.objectContaining({code: 'recording-file-missing', pointer: '/files/0'}))
  })

  it('`RUN/link/../run` is read as the shell reads it: `..` of the link target', async () => {
    const elsewhere = await tree({'logs/run.log': LOG, 'logs/deeper/x': 'x'})
    const root = await tree({'run.log': 'not the one\n'})
    await symlink(join(elsewhere, 'logs/deeper'), join(root, 'link'))
    // a string, not join(): join would fold `link/..` away as path.resolve did
    const d = await discoverRun(createNodeFilePort(), `${root}/link/../run.log`)
    expect(d.logs.map((l) => l.abs)).toEqual([join(elsewhere, 'logs/run.log')])
    await writeFile(join(elsewhere, 'logs/only-there.log'), LOG)
    const dir = await discoverRun(createNodeFilePort(), `${root}/link/..`)
    expect(dir.logs.map((l) => l.rel)).toEqual(['only-there.log', 'run.log'])
  })
})
