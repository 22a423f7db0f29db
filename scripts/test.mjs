// npm test: the build, the typecheck, the lint and the unit tier, all at once (docs/contributing.md, "Tests").
// They are independent — the unit tier reads none of dist/ — and each is bound by the CPU, so running them side by
// side keeps both cores busy to the end: the typecheck and the lint (one core each) fill what the unit tier's two
// workers leave idle, rather than one step waiting for another. The build is skipped when dist/ is already the
// build of the sources as they are (scripts/build-stamp.mjs: `npm ci` has just made it).
// Each check's output is printed when it ends, with its time; the unit tier's as it runs. The first failure stops
// the rest and fails the run.
import {spawn} from 'node:child_process'
import {staleness} from './build-stamp.mjs'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const started = Date.now()
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1)
const children = new Set()
let failed = false

function start(args, stdio) {
  // its own process group, so that stopping it stops what it started (vitest's workers, tsc under npm)
  const child = spawn(npm, args, {stdio, detached: process.platform !== 'win32'})
  children.add(child)
  child.on('close', () => children.delete(child))
  return child
}

function stopAll() {
  for (const child of children) {
    try {
      if (process.platform === 'win32') child.kill()
      else process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
}

function fail(name) {
  if (failed) return
  failed = true
  process.stdout.write(`── npm test: failed (${name}) in ${seconds(started)} s\n`)
  stopAll()
  process.exitCode = 1
}

/** A check run with its output held, printed whole when it ends (only when it failed: an ok check is one line). */
function check(name, args) {
  const since = Date.now()
  return new Promise((resolve) => {
    const child = start(args, ['ignore', 'pipe', 'pipe'])
    const chunks = []
    child.stdout.on('data', (c) => chunks.push(c))
    child.stderr.on('data', (c) => chunks.push(c))
    child.on('close', (code, signal) => {
      if (failed) return resolve(false)
      const ok = code === 0
      process.stdout.write(`── ${name}: ${ok ? 'ok' : `failed (${signal ?? `exit ${code}`})`} in ${seconds(since)} s\n`)
      const output = Buffer.concat(chunks).toString('utf8').trim()
      if (!ok && output !== '') process.stdout.write(`${output}\n`)
      if (!ok) fail(name)
      resolve(ok)
    })
  })
}

function unitTier() {
  const since = Date.now()
  return new Promise((resolve) => {
    const child = start(['run', 'test:unit'], 'inherit')
    child.on('close', (code, signal) => {
      if (failed) return resolve(false)
      const ok = code === 0
      process.stdout.write(`── unit tier: ${ok ? 'ok' : `failed (${signal ?? `exit ${code}`})`} in ${seconds(since)} s\n`)
      if (!ok) fail('unit tier')
      resolve(ok)
    })
  })
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll()
    process.exit(130)
  })
}

const stale = staleness()
if (stale === null) process.stdout.write('── build: dist/ is the build of these sources already\n')
const results = await Promise.all([
  // the longest single step first: the typecheck (one core, ~35 s of CPU)
  check('typecheck', ['run', 'typecheck']),
  check('lint', ['run', 'lint']),
  ...(stale === null ? [] : [check('build', ['run', 'build'])]),
  unitTier(),
])
if (results.every(Boolean)) process.stdout.write(`── npm test: ok in ${seconds(started)} s\n`)
