// Lint is part of `npm test`. Besides style, it enforces the architecture (docs/architecture.md):
// imports point downwards only, and the pure core never touches the outside world.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import local from './lint-rules/no-outside-citations.js'

/** Layers from top to bottom; a layer may import only from layers listed after it (or itself). */
const LAYERS = {
  /** Thin: parse flags, call one service, present its result. */
  commands: ['services', 'cli', 'shared'],
  /** oclif hooks (package.json oclif.hooks): as thin as commands. */
  hooks: ['cli', 'shared'],
  /** The command's edge: exit codes, errors, and drawing a service's result for the terminal. */
  cli: ['render', 'shared'],
  services: ['render', 'live', 'recording', 'explain', 'replay', 'conformance', 'logic', 'ingest', 'model', 'shared'],
  live: ['render', 'recording', 'explain', 'replay', 'logic', 'ingest', 'model', 'shared'],
  /** The recording writer and manifest (docs/recording-format.md), shared by `record` and `live`. */
  recording: ['ingest', 'model', 'shared'],
  render: ['explain', 'replay', 'conformance', 'logic', 'model', 'shared'],
  explain: ['replay', 'logic', 'model', 'shared'],
  replay: ['logic', 'model', 'shared'],
  conformance: ['logic', 'model', 'shared'],
  logic: ['model', 'shared'],
  ingest: ['logic', 'model', 'shared'],
  model: ['shared'],
  shared: [],
}
const ALL = Object.keys(LAYERS)

/** Ingest's front door: the only modules of src/ingest that other layers may import (docs/ingest.md). */
const INGEST_DOORS = ['index', 'recording-manifest']

function importRule(layer, pure) {
  const forbidden = ALL.filter((other) => other !== layer && !LAYERS[layer].includes(other))
  const layering = forbidden.map((other) => ({
    // relative imports that climb out to src/<other>: `../other/x.js`, `../../other.js`; never `./sub/other.js`
    regex: `^(\\.\\./)+${other}(/|\\.js$)`,
    message: `src/${layer} may not import from src/${other}: imports point downwards only (docs/architecture.md).`,
  }))
  const doors = layer === 'ingest' || forbidden.includes('ingest') ? [] : [{
    regex: `^(\\.\\./)+ingest/(?!(${INGEST_DOORS.join('|')})\\.js$)`,
    message: `src/${layer} may import ingest only through its front door (src/ingest/index.ts, or recording-manifest.ts for the manifest schema).`,
  }]
  return ['error', {patterns: [...layering, ...doors], paths: pure ? IMPURE_MODULES : []}]
}

function layerRules(layer) {
  return {files: [`src/${layer}/**/*.{ts,tsx}`], rules: {'no-restricted-imports': importRule(layer, PURE.includes(layer))}}
}

/** The pure core: same input, byte-identical output. */
const PURE = ['logic', 'replay', 'explain', 'model', 'conformance']
const PURE_GLOBS = [
  ...PURE.map((l) => `src/${l}/**/*.{ts,tsx}`),
  'src/render/text/**/*.ts',
  'src/render/json/**/*.ts',
  'src/render/markdown/**/*.ts',
  'src/render/html/**/*.ts',
  'src/ingest/log/**/*.ts',
  'src/ingest/tasks/**/*.ts',
  'src/shared/redact*.ts',
  'src/shared/neutralise.ts',
]
const IMPURE_MODULES = [
  'fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'child_process', 'node:child_process', 'os', 'node:os',
  'process', 'node:process', 'timers', 'node:timers', 'timers/promises', 'node:timers/promises',
  'readline', 'node:readline', 'net', 'node:net', 'http', 'node:http', 'https', 'node:https', 'worker_threads',
  'node:worker_threads', 'perf_hooks', 'node:perf_hooks',
].map((name) => ({name, message: 'The pure core may not do I/O, read the environment or the clock: take it as an argument.'}))
  .concat([
    {name: 'crypto', importNames: ['randomUUID', 'randomBytes', 'randomInt', 'getRandomValues', 'webcrypto'], message: 'No randomness in the pure core.'},
    {name: 'node:crypto', importNames: ['randomUUID', 'randomBytes', 'randomInt', 'getRandomValues', 'webcrypto'], message: 'No randomness in the pure core.'},
  ])

/** Pure sub-folders of impure layers: flat config replaces a rule's options, so both parts are restated. */
const PURE_SUBFOLDERS = [
  {layer: 'render', folders: ['text', 'json', 'markdown', 'html']},
  {layer: 'ingest', folders: ['log', 'tasks']},
].map(({layer, folders}) => ({
  files: folders.map((f) => `src/${layer}/${f}/**/*.{ts,tsx}`),
  rules: {'no-restricted-imports': importRule(layer, true)},
})).concat({
  // redaction and output neutralisation are pure: renderers call them on values
  files: ['src/shared/redact*.ts', 'src/shared/neutralise.ts'],
  rules: {'no-restricted-imports': importRule('shared', true)},
})

const purity = {
  files: PURE_GLOBS,
  rules: {
    'no-restricted-globals': [
      'error',
      ...['process', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'performance', 'require', 'fetch', 'crypto'].map((name) => ({
        name,
        message: 'The pure core may not touch the process, timers, network or randomness.',
      })),
    ],
    'no-restricted-syntax': [
      'error',
      {selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'No clock in the pure core: pass times in.'},
      {selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'No clock in the pure core: pass times in.'},
      {selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'No randomness in the pure core.'},
      {selector: "MemberExpression[object.name='globalThis']", message: 'The pure core may not reach for globals.'},
    ],
  },
}

export default tseslint.config(
  {ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'fixtures/**', 'test-output/**', '.bench/**', 'test/lint/planted/**']},
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {globals: {console: 'readonly', process: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly', setImmediate: 'readonly', queueMicrotask: 'readonly', structuredClone: 'readonly', performance: 'readonly', AbortController: 'readonly', NodeJS: 'readonly'}},
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none'}],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-constant-condition': ['error', {checkLoops: false}],
    },
  },
  ...ALL.map(layerRules),
  ...PURE_SUBFOLDERS,
  purity,
  {
    // Comments cite only what a clone holds (docs/contributing.md): every file the lint reads, tests and benches too.
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: {local},
    rules: {'local/no-outside-citations': 'error'},
  },
  {
    files: ['test/**/*.{ts,tsx}'],
    rules: {'@typescript-eslint/no-explicit-any': 'off'},
  },
)
