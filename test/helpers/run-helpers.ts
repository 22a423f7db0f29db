import {createHash} from 'node:crypto'
import {lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {DEFAULT_LIMITS, type IngestLimits} from '../../src/ingest/discover.js'
import type {FsPort} from '../../src/ingest/fs/file-port.js'
import type {RunRecord} from '../../src/model/run-record.js'
import {loadRun} from '../../src/services/load-run.js'

/** RUN → RunRecord through the load-run service (discovery, logs, artifacts, merge). */
export async function ingestPath(runPath: string, options: {port?: FsPort; limits?: IngestLimits} = {}): Promise<RunRecord> {
  return loadRun(runPath, options)
}

/** A temporary directory with the given files (string or bytes); symlinks as {symlink: target}, empty folders as {dir: true}. */
export async function makeTree(files: Record<string, string | Uint8Array | {symlink: string} | {dir: true}>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'gkr-ingest-'))
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel)
    await mkdir(dirname(path), {recursive: true})
    if (typeof content === 'object' && 'dir' in content) await mkdir(path, {recursive: true})
    else if (typeof content === 'object' && 'symlink' in content) await symlink(content.symlink, path)
    else await writeFile(path, content)
  }
  return root
}

export async function removeTree(root: string): Promise<void> {
  await rm(root, {recursive: true, force: true})
}

/** A hash of every name, type, link target and byte under `root` (to show RUN is not modified). */
export async function hashTree(root: string): Promise<string> {
  const hash = createHash('sha256')
  async function walk(dir: string, rel: string): Promise<void> {
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name)
      const st = await lstat(path)
      hash.update(`${rel}/${name}\0${st.mode}\0${st.mtimeMs}\0`)
      if (st.isSymbolicLink()) hash.update(await readlink(path))
      else if (st.isDirectory()) await walk(path, `${rel}/${name}`)
      // a FIFO's content is not the tree's (and reading one waits for a writer)
      else if (st.isFile()) hash.update(await readFile(path))
    }
  }
  await walk(root, '')
  return hash.digest('hex')
}

export {DEFAULT_LIMITS}
