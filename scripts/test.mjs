// npm test: the build, the typecheck and the lint, two at a time (they are independent and each keeps about one
// core busy; the unit tier reads none of dist/), then the unit tier on both cores (docs/contributing.md, "Tests").
// Each step's output is printed whole when it ends, with its time; the first failure stops the run before vitest.
import {spawn} from 'node:child_process'

const CHECKS = [
  ['build', ['run', 'build']],
  ['typecheck', ['run', 'typecheck']],
  ['lint', ['run', 'lint']],
]
const AT_ONCE = 2
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

function runCaptured(name, args) {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(npm, args, {stdio: ['ignore', 'pipe', 'pipe']})
    const chunks = []
    child.stdout.on('data', (c) => chunks.push(c))
    child.stderr.on('data', (c) => chunks.push(c))
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1)
      const ok = code === 0
      process.stdout.write(`── ${name}: ${ok ? 'ok' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s\n`)
      const output = Buffer.concat(chunks).toString('utf8').trim()
      if (!ok && output !== '') process.stdout.write(`${output}\n`)
      resolve(ok)
    })
  })
}

async function runChecks() {
  const queue = [...CHECKS]
  let ok = true
  const lane = async () => {
    for (let next = queue.shift(); next !== undefined && ok; next = queue.shift()) ok = (await runCaptured(...next)) && ok
  }
  await Promise.all(Array.from({length: AT_ONCE}, lane))
  return ok
}

const started = Date.now()
if (!(await runChecks())) process.exit(1)
const vitest = spawn(npm, ['run', 'test:unit'], {stdio: 'inherit'})
vitest.on('close', (code, signal) => {
  process.stdout.write(`── npm test: ${code === 0 ? 'ok' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
  process.exit(code ?? (signal ? 1 : 0))
})
