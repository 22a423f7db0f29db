import {execFileSync} from 'node:child_process'
import {closeSync, constants, openSync} from 'node:fs'
import {realpath} from 'node:fs/promises'
import {makeTree, removeTree} from './run-helpers.js'

/**
 * Temporary trees and the FIFOs a test plants in them, for the tests of special files (docs/security.md).
 * `cleanup` (an afterEach) first opens a writer end on every FIFO: should a regression leave a read
 * blocked on one, the read ends and the test fails instead of hanging. Then the trees go.
 */
export function plantedTrees(): {
  tree(files: Parameters<typeof makeTree>[0]): Promise<string>
  fifo(path: string): void
  cleanup(): Promise<void>
} {
  const roots: string[] = []
  const fifos: string[] = []
  return {
    // the real path: a root is compared with the path of the open file, and the temporary folder may be a link
    async tree(files) {
      const root = await realpath(await makeTree(files))
      roots.push(root)
      return root
    },
    fifo(path) {
      execFileSync('mkfifo', [path])
      fifos.push(path)
    },
    async cleanup() {
      for (const f of fifos.splice(0)) {
        try {
          closeSync(openSync(f, constants.O_WRONLY | constants.O_NONBLOCK))
        } catch {
          // ENXIO: nobody is reading it, as it should be
        }
      }
      for (const r of roots.splice(0)) await removeTree(r)
    },
  }
}
