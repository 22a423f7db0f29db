// Steps of a test tier run side by side (docs/contributing.md, "Tests"): each is bound by the CPU or waits on
// processes of its own, and none needs another's output, so on two cores they finish sooner together than one
// after the other. One step may print as it runs ('live'); the others' output is held and printed when they end
// (in full when they failed or ask for it, `always`; else an ok step is one line). The first failure stops the rest and fails the run.
import {spawn} from 'node:child_process'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1)

/**
 * Runs `steps` ({name, args: npm's arguments, live?: boolean, always?: boolean, env?: variables to add}) at once; resolves true when all passed. `title`
 * names the whole in its last line.
 */
export async function runSideBySide(title, steps) {
  const started = Date.now()
  const children = new Set()
  let failed = false

  const stopAll = () => {
    for (const child of children) {
      try {
        if (process.platform === 'win32') child.kill()
        else process.kill(-child.pid, 'SIGTERM')
      } catch {
        // already gone
      }
    }
  }
  const fail = (name) => {
    if (failed) return
    failed = true
    process.stdout.write(`── ${title}: failed (${name}) in ${seconds(started)} s\n`)
    stopAll()
  }
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      stopAll()
      process.exit(130)
    })
  }

  const run = ({name, args, live = false, always = false, env = {}}) => {
    const since = Date.now()
    return new Promise((resolve) => {
      // its own process group, so that stopping it stops what it started (vitest's workers, tsc under npm)
      const child = spawn(npm, args, {stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', env: {...process.env, ...env}})
      children.add(child)
      const chunks = []
      if (!live) {
        child.stdout.on('data', (c) => chunks.push(c))
        child.stderr.on('data', (c) => chunks.push(c))
      }
      child.on('close', (code, signal) => {
        children.delete(child)
        if (failed) return resolve(false)
        const ok = code === 0
        process.stdout.write(`── ${name}: ${ok ? 'ok' : `failed (${signal ?? `exit ${code}`})`} in ${seconds(since)} s\n`)
        const output = Buffer.concat(chunks).toString('utf8').trim()
        if ((!ok || always) && output !== '') process.stdout.write(`${output}\n`)
        if (!ok) fail(name)
        resolve(ok)
      })
    })
  }

  const results = await Promise.all(steps.map(run))
  const ok = results.every(Boolean)
  if (ok) process.stdout.write(`── ${title}: ok in ${seconds(started)} s\n`)
  return ok
}
