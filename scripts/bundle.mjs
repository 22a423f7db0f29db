// The build (`npm run build`, docs/contributing.md "The build"): esbuild compiles and bundles the TypeScript
// sources straight into dist/ — each command, each oclif hook, the entry bin/run.js starts through
// (src/cli/execute.ts) and the gate's worker thread, with their own modules and the pure-JS packages
// they use (@oclif/core, yaml, zod, chalk, diff), code shared between them split into dist/chunks.
// Node 20 has no compile cache, so what a command costs to start is mostly how many files it loads:
// ~230 CommonJS files unbundled, a handful now. esbuild only strips the types: `npm run typecheck`
// checks them (npm test runs both), so the build does not compile everything a second time with tsc.
// Development and tests run the TypeScript sources and never see the bundles; the built CLI has its
// own tests (test/e2e/bin/built-cli.test.ts).
import {build} from 'esbuild'
import {readdirSync} from 'node:fs'

const sources = (dir) => readdirSync(dir, {recursive: true})
  .filter((f) => typeof f === 'string' && /\.tsx?$/.test(f))
  .map((f) => `${dir}/${f}`)
// topics (`gate merge` = dist/commands/gate/merge.js) keep their folder: outbase
const commands = sources('src/commands')
// hooks (package.json oclif.hooks) load on their event only, and share oclif's chunk with the commands
const hooks = sources('src/hooks')
// worker threads are started from their files: the gate's (dist/services/gate/worker.js, src/services/gate/pool.ts)
// and analyze --json's analysis ahead of the read (dist/services/stream/analysis-worker.js); bundled, each loads
// as few files as a command
const workers = ['src/services/gate/worker.ts', 'src/services/stream/analysis-worker.ts']

// Left to node_modules:
// - ink and react: loaded by `live` only; ink brings yoga's WebAssembly and reads files at run time.
// - @oclif/plugin-help: a plugin, which oclif finds and loads from node_modules by its package.json.
// - what oclif requires only in development mode (typescript, tsx, ts-node) or under Yarn PnP.
// - string-width: required on first use only (src/shared/display-width.ts), so it is never bundled.
const external = ['ink', 'ink-*', 'react', 'react/*', 'react-*', '@oclif/plugin-help', 'typescript', 'tsx', 'tsx/*', 'ts-node', 'pnpapi']

// oclif is CommonJS: in an ES module bundle its `require(...)` of plugin paths needs a real require.
const banner = "import {createRequire as __createRequire} from 'node:module';const require = __createRequire(import.meta.url);"

await build({
  entryPoints: ['src/cli/execute.ts', ...commands, ...hooks, ...workers],
  outbase: 'src',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  tsconfig: 'tsconfig.json',
  splitting: true,
  external,
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  banner: {js: banner},
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  logLevel: 'warning',
})
