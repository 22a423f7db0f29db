import {createRequire} from 'node:module'
import {dirname, join, sep} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

/**
 * Where a worker thread's code is, `path` being its module under src/services without extension
 * (`gate/worker`): in src/ for development and tests, run through tsx (registered in the thread), or
 * in dist/services/ for the built CLI, whose bundled commands and chunks live elsewhere.
 */
export function workerUrl(path: string): URL {
  const here = fileURLToPath(import.meta.url)
  if (here.endsWith('.ts')) {
    const tsx = join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')
    const worker = pathToFileURL(join(dirname(here), `${path}.ts`)).href
    const code = `import {register} from ${JSON.stringify(pathToFileURL(tsx).href)}; register(); await import(${JSON.stringify(worker)})`
    return new URL(`data:text/javascript,${encodeURIComponent(code)}`)
  }
  const at = here.lastIndexOf(`${sep}dist${sep}`)
  const root = at === -1 ? join(dirname(here), '..') : here.slice(0, at + `${sep}dist`.length)
  return pathToFileURL(join(root, 'services', `${path}.js`))
}
