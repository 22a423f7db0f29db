// Development and tests run the TypeScript sources. oclif would load every command listed in
// oclif.manifest.json from dist/ (stale until the next build), so the root plugin is loaded
// without its manifest here; the core plugins of package.json are loaded as usual.
import {Config, Plugin} from '@oclif/core'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

export async function loadDevConfig() {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  const rootPlugin = new Plugin({root, isRoot: true, ignoreManifest: true})
  const plugins = [rootPlugin]
  for (const name of pjson.oclif.plugins ?? []) {
    plugins.push(new Plugin({root: join(root, 'node_modules', name), type: 'core'}))
  }
  await Promise.all(plugins.map((p) => p.load()))
  return Config.load({root, plugins: new Map(plugins.map((p) => [p.name, p]))})
}
