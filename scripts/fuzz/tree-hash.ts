import {createHash} from 'node:crypto'
import {lstatSync, readdirSync, readFileSync, readlinkSync} from 'node:fs'
import {join} from 'node:path'

/**
 * A sha256 over a folder as it is on disk, links not followed: every entry's name, type, mode and
 * mtime (to the nanosecond), each file's bytes and each link's text. Reading changes none of them;
 * any write, rename, chmod, touch or new file does.
 */
export function hashTree(root: string): string {
  const hash = createHash('sha256')
  visit(root, '.', hash)
  return hash.digest('hex')
}

function visit(abs: string, rel: string, hash: ReturnType<typeof createHash>): void {
  let st
  try {
    st = lstatSync(abs, {bigint: true})
  } catch (error) {
    hash.update(`${rel}\0missing:${(error as NodeJS.ErrnoException).code}\n`)
    return
  }
  const type = st.isFile() ? 'file' : st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'link' : st.isFIFO() ? 'fifo' : 'other'
  hash.update(`${rel}\0${type}\0${Number(st.mode & 0o7777n).toString(8)}\0${st.mtimeNs}\0${st.size}\0`)
  try {
    if (type === 'file') hash.update(readFileSync(abs))
    else if (type === 'link') hash.update(readlinkSync(abs))
    else if (type === 'dir') {
      for (const name of readdirSync(abs).sort()) visit(join(abs, name), `${rel}/${name}`, hash)
    }
  } catch (error) {
    // an unreadable entry (mode 000 when not root): its metadata still counts
    hash.update(`unreadable:${(error as NodeJS.ErrnoException).code}`)
  }
  hash.update('\n')
}
