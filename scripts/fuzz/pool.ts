import {fork, type ChildProcess} from 'node:child_process'
import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import type {CaseResult} from './check-case.js'
import {removeTree} from './materialise.js'
import type {RunCase} from './model/types.js'
import type {FromWorker, ToWorker} from './worker.js'

/**
 * One worker process (worker.ts, under tsx) that runs cases one at a time. A worker that dies or
 * overruns the case's time limit is killed with its process group (the built CLI processes it
 * started included), the case reports it, and the next case gets a fresh worker. A worker that has
 * grown past `maxRss` is replaced between cases.
 */

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url))
const MAX_RSS = 2 * 1024 ** 3

const LIVE = new Set<Worker>()
/** Ends every worker (and what it started): on exit, Ctrl-C or a kill of the fuzzer. */
export function killAllWorkers(): void {
  for (const w of LIVE) w.kill()
}

export class Worker {
  private child: ChildProcess | null = null
  private ready: Promise<void> | null = null
  private stderrTail = ''
  private nextId = 0

  /** Milliseconds a case may take (lowered while a failure is shrunk). */
  constructor(public caseTimeoutMs: number) {
    LIVE.add(this)
  }

  async run(c: RunCase, base: string, keep: boolean, cli: ToWorker['cli']): Promise<CaseResult> {
    const child = await this.start()
    const id = ++this.nextId
    this.stderrTail = ''
    return new Promise<CaseResult>((resolve, reject) => {
      const started = performance.now()
      const dead = (why: string): CaseResult => {
        if (!keep && existsSync(base)) removeTree(base)
        const tail = this.stderrTail.trim().split('\n').slice(-12).join('\n        ')
        return {failures: [`${command}: the process running the case ${why}${tail === '' ? '' : `; its stderr ends:\n        ${tail}`}`], commands: [], skipped: [], issueCodes: [], dir: base, msTotal: performance.now() - started}
      }
      const timer = setTimeout(() => {
        cleanup()
        this.kill()
        resolve(dead(`did not finish within ${Math.round(this.caseTimeoutMs / 1000)} s (a hang or a very slow command); it was killed`))
      }, this.caseTimeoutMs)
      let command = 'setting the case up'
      const onMessage = (m: FromWorker) => {
        if (m.type === 'ready' || m.id !== id) return
        if (m.type === 'command') {
          command = m.name
          return
        }
        cleanup()
        if (m.type === 'error') {
          reject(new Error(`the fuzzer failed on a case (a harness bug, not a finding): ${m.message}`))
          return
        }
        if (m.rss > MAX_RSS) this.kill()
        resolve(m.result)
      }
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        cleanup()
        this.child = null
        this.ready = null
        resolve(dead(`died (${signal === null ? `exit code ${code}` : signal})`))
      }
      const cleanup = () => {
        clearTimeout(timer)
        child.off('message', onMessage)
        child.off('exit', onExit)
      }
      child.on('message', onMessage)
      child.on('exit', onExit)
      const message: ToWorker = {type: 'case', id, case: c, base, keep, cli}
      child.send(message)
    })
  }

  private start(): Promise<ChildProcess> {
    if (this.child !== null && this.ready !== null) {
      const child = this.child
      return this.ready.then(() => child)
    }
    const env: NodeJS.ProcessEnv = {...process.env, NODE_ENV: 'development'}
    delete env.GUARDKIT_REPLAY_DEBUG
    const child = fork(WORKER, [], {execArgv: ['--import', 'tsx'], env, detached: true, stdio: ['ignore', 'ignore', 'pipe', 'ipc']})
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-8000)
    })
    this.child = child
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (m: FromWorker) => {
        if (m.type === 'ready') {
          child.off('message', onMessage)
          resolve()
        }
      }
      child.on('message', onMessage)
      child.once('exit', (code) => reject(new Error(`the fuzz worker did not start (exit ${code}): ${this.stderrTail}`)))
    })
    return this.ready.then(() => child)
  }

  /** Ends the worker and what it started (its own process group). */
  kill(): void {
    const child = this.child
    this.child = null
    this.ready = null
    if (child?.pid === undefined) return
    child.removeAllListeners('exit')
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      child.kill('SIGKILL')
    }
  }
}
