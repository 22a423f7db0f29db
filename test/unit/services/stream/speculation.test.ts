import {readFileSync} from 'node:fs'
import {Readable} from 'node:stream'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {buildAnalysisReport} from '../../../../src/render/json/build-analysis-report.js'
import {present, type Drawn} from '../../../../src/render/present.js'
import {PLAIN} from '../../../../src/render/text/plain-palette.js'
import {analyzeRunPath, analyzeRunStreamed} from '../../../../src/services/analyze.js'
import {createAttemptAnalyser, type FromAnalyser, type ToAnalyser} from '../../../../src/services/stream/attempt-analyser.js'
import type {StartAnalyser} from '../../../../src/services/stream/speculation.js'

/**
 * `analyze --json` with the analysis ahead of the read (docs/architecture.md "Streaming"): whatever the
 * analyser does — keeps up, starts over when the era read so far changes, reads outside its view,
 * fails, never starts — the document is the whole report's, byte for byte. The analyser runs in this
 * thread here, its messages copied as a worker thread's are (structuredClone).
 */
const FIXTURES = fileURLToPath(new URL('../../../../fixtures/runs/', import.meta.url))
const LOGS = ['ok-parallel-waves', 'db-003-timeout-log-only', 'hostile-log', 'ok-approved-after-feedback', 'ac1a-run1-pre-acr']
const tool = {name: 'guardkit-replay', version: 'test'}
const request = {names: [], with: [], without: [], tool, progress: {step: () => {}, done: () => {}}}
const surface = {palette: PLAIN, width: 100, verbose: false}

function stdinOf(names: readonly string[]) {
  const bytes = Buffer.concat(names.map((name) => readFileSync(`${FIXTURES}${name}/run.log`)))
  return () => Readable.from([bytes.subarray(0, 50_001), bytes.subarray(50_001)])
}

interface Watched {
  readonly start: StartAnalyser
  readonly sent: ToAnalyser[]
  readonly back: FromAnalyser[]
}

/** The analyser in this thread; `tamper` may replace what it sends back. */
function inThread(tamper: (m: FromAnalyser) => FromAnalyser = (m) => m): Watched {
  const sent: ToAnalyser[] = []
  const back: FromAnalyser[] = []
  const start: StartAnalyser = (settings, receive) => {
    let open = true
    const analyser = createAttemptAnalyser(structuredClone(settings), (m) => {
      const copy = tamper(structuredClone(m))
      back.push(copy)
      setImmediate(() => open && receive(copy))
    })
    return {
      post(m) {
        sent.push(m)
        const copy = structuredClone(m)
        setImmediate(() => open && analyser.receive(copy))
      },
      close() {
        open = false
      },
    }
  }
  return {start, sent, back}
}

async function documents(names: readonly string[], start: StartAnalyser) {
  const stdin = stdinOf(names)
  const whole = JSON.stringify(buildAnalysisReport(await analyzeRunPath('-', {...request, stdin: stdin()})), null, 2)
  const streamed = await analyzeRunStreamed('-', {...request, stdin: stdin(), analyser: {start, startAfterBytes: 0}})
  if (!('analysis' in streamed)) throw new Error('a log of several runs is streamed')
  const drawn: Drawn = await present({kind: 'analysis-stream', analysis: streamed.analysis}, 'json', surface)
  if (drawn.kind !== 'json-chunks') throw new Error('drawn in pieces')
  return {whole, streamed: [...drawn.chunks].join(''), ahead: 'drawn' in streamed.analysis}
}

describe('analyze --json with the analysis ahead of the read', () => {
  it('gives the whole report\'s document when the analyser keeps up, drawn ahead', async () => {
    const watched = inThread()
    const {whole, streamed, ahead} = await documents(LOGS.slice(0, 4), watched.start)
    expect(streamed).toBe(whole)
    expect(ahead).toBe(true)
    expect(watched.back.every((m) => m.type === 'drawn')).toBe(true)
  })

  it('starts over when the era read so far changes what the analysis read, and still gives the same document', async () => {
    const watched = inThread()
    const {whole, streamed, ahead} = await documents(LOGS, watched.start)
    expect(streamed).toBe(whole)
    const generations = watched.sent.filter((m) => m.type === 'generation')
    expect(generations.length).toBeGreaterThan(1)
    // the era settles before the log ends: the last start holds for the whole log
    expect(ahead).toBe(true)
  })

  it('drops what was drawn ahead when an analysis read more of the run than its attempt\'s view, and analyses after the read', async () => {
    const watched = inThread((m) => (m.type === 'drawn' && m.attempt === 2 ? {type: 'missed', generation: m.generation, attempt: m.attempt, key: 'attempts'} : m))
    const {whole, streamed, ahead} = await documents(LOGS.slice(0, 4), watched.start)
    expect(streamed).toBe(whole)
    expect(ahead).toBe(false)
  })

  it('analyses after the read when the analyser fails or never starts', async () => {
    const failing = inThread((m) => (m.type === 'drawn' ? {type: 'failed', generation: m.generation, attempt: m.attempt, message: 'boom'} : m))
    const failed = await documents(LOGS.slice(0, 4), failing.start)
    expect(failed.streamed).toBe(failed.whole)
    expect(failed.ahead).toBe(false)
    const none: StartAnalyser = (_settings, _receive, fail) => {
      setImmediate(() => fail(new Error('no thread')))
      return {post: () => {}, close: () => {}}
    }
    const never = await documents(LOGS.slice(0, 4), none)
    expect(never.streamed).toBe(never.whole)
    expect(never.ahead).toBe(false)
  })
})
