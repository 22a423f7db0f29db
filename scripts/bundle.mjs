// Bundles each compiled command with its own modules (packages stay external) so that a command
// loads a handful of files instead of ~200: start-up is part of the < 500 ms budget of `analyze`.
// Development and tests run the TypeScript sources and never see the bundles.
import {build} from 'esbuild'
import {readdirSync} from 'node:fs'

// topics (`gate merge` = dist/commands/gate/merge.js) keep their folder: outbase
const commands = readdirSync('dist/commands', {recursive: true})
  .filter((f) => typeof f === 'string' && f.endsWith('.js'))
  .map((f) => `dist/commands/${f}`)
await build({
  entryPoints: commands,
  outbase: 'dist/commands',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  packages: 'external',
  outdir: 'dist/commands',
  chunkNames: '../chunks/[name]-[hash]',
  allowOverwrite: true,
  sourcemap: 'linked',
  logLevel: 'warning',
})
