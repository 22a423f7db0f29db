// Bundles the compiled CLI for start-up time: each command, and the entry bin/run.js starts through
// (dist/cli/execute.js), with its own modules and the pure-JS packages it uses (@oclif/core, yaml,
// zod, chalk, diff), code shared between them split into dist/chunks. Node 20 has no compile cache,
// so what a command costs to start is mostly how many files it loads: ~230 CommonJS files before,
// a handful now. Development and tests run the TypeScript sources and never see the bundles; the
// built CLI has its own smoke test (test/dist).
import {build} from 'esbuild'
import {readdirSync} from 'node:fs'

// topics (`gate merge` = dist/commands/gate/merge.js) keep their folder: outbase
const commands = readdirSync('dist/commands', {recursive: true})
  .filter((f) => typeof f === 'string' && f.endsWith('.js'))
  .map((f) => `dist/commands/${f}`)
// hooks (package.json oclif.hooks) load on their event only, and share oclif's chunk with the commands
const hooks = readdirSync('dist/hooks').filter((f) => f.endsWith('.js')).map((f) => `dist/hooks/${f}`)
// a worker thread that starts on a large log (analyze --json's analysis ahead of the read) loads as
// few files as a command; the gate's threads load the compiled modules as they are
const workers = ['dist/services/stream/analysis-worker.js']

// Left to node_modules:
// - ink and react: loaded by `live` only; ink brings yoga's WebAssembly and reads files at run time.
// - @oclif/plugin-help: a plugin, which oclif finds and loads from node_modules by its package.json.
// - what oclif requires only in development mode (typescript, tsx, ts-node) or under Yarn PnP.
// - string-width: required on first use only (src/shared/display-width.ts), so it is never bundled.
const external = ['ink', 'ink-*', 'react', 'react/*', 'react-*', '@oclif/plugin-help', 'typescript', 'tsx', 'tsx/*', 'ts-node', 'pnpapi']

// oclif is CommonJS: in an ES module bundle its `require(...)` of plugin paths needs a real require.
const banner = "import {createRequire as __createRequire} from 'node:module';const require = __createRequire(import.meta.url);"

await build({
  entryPoints: ['dist/cli/execute.js', ...commands, ...hooks, ...workers],
  outbase: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  external,
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  allowOverwrite: true,
  banner: {js: banner},
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  logLevel: 'warning',
})
