/**
 * The HTML report (docs/html-report.md): its size for every corpus log (the largest log's report
 * must stay under 1 MB), the time to render it in Node, and the time Debian's chromium takes to
 * show it: from navigation start to the second animation frame after `load` (parse, style,
 * layout and first paint done), median of several fresh pages. Without /usr/bin/chromium the
 * browser figure says so instead.
 */
import {mkdirSync, readdirSync, statSync, writeFileSync} from 'node:fs'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {renderAnalyzeHtml} from '../src/render/html/analyze.js'
import {analyzeRunPath} from '../src/services/analyze.js'
import {chromiumInstalled, launchChromium} from '../test/e2e/browser/chromium.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const corpus = fileURLToPath(new URL('../../shared/corpus/logs/', import.meta.url))
const out = `${root}.bench/html/`
const MB = 1024 * 1024
const ROUNDS = 7
const SILENT = {step: () => undefined, done: () => undefined}
const TOOL = {name: 'guardkit-replay', version: 'bench'}

function emit(name: string, value: number | string, unit: string, extra: {target?: string; met?: boolean; note?: string} = {}): void {
  console.log(`BENCH ${JSON.stringify({name, value, unit, ...extra})}`)
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

async function renderLog(path: string): Promise<{html: string; renderMs: number}> {
  const report = await analyzeRunPath(path, {names: [], with: [], without: [], tool: TOOL, progress: SILENT})
  const times: number[] = []
  let html = ''
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now()
    html = renderAnalyzeHtml(report)
    times.push(performance.now() - t0)
  }
  return {html, renderMs: median(times)}
}

/** Navigation start → two animation frames after `load`, per fresh page; and the first contentful paint. */
async function browserTimes(files: readonly string[]): Promise<Map<string, {shown: number; fcp: number | null}>> {
  const browser = await launchChromium()
  const result = new Map<string, {shown: number; fcp: number | null}>()
  try {
    for (const file of files) {
      const shown: number[] = []
      const fcp: number[] = []
      for (let i = 0; i < ROUNDS; i++) {
        const context = await browser.newContext({viewport: {width: 1280, height: 900}})
        const page = await context.newPage()
        await page.goto(pathToFileURL(file).href, {waitUntil: 'load'})
        const t = await page.evaluate(`new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
          const paint = performance.getEntriesByName('first-contentful-paint')[0]
          resolve({shown: performance.now(), fcp: paint ? paint.startTime : null})
        })))`) as {shown: number; fcp: number | null}
        shown.push(t.shown)
        if (t.fcp !== null) fcp.push(t.fcp)
        await context.close()
      }
      result.set(file, {shown: median(shown), fcp: fcp.length === 0 ? null : median(fcp)})
    }
  } finally {
    await browser.close()
  }
  return result
}

mkdirSync(out, {recursive: true})
const logs = readdirSync(corpus).filter((f) => f.endsWith('.log')).sort()
const largestLog = [...logs].sort((a, b) => statSync(`${corpus}${b}`).size - statSync(`${corpus}${a}`).size)[0]!
const sizes: {log: string; bytes: number; renderMs: number; file: string}[] = []
for (const log of logs) {
  const {html, renderMs} = await renderLog(`${corpus}${log}`)
  const file = `${out}${log.replace(/\.log$/, '')}.html`
  writeFileSync(file, html)
  sizes.push({log, bytes: Buffer.byteLength(html), renderMs, file})
}
const db003 = await renderLog(fileURLToPath(new URL('../fixtures/runs/db-003-timeout', import.meta.url)))
const db003File = `${out}db-003-timeout.html`
writeFileSync(db003File, db003.html)

const largest = sizes.find((s) => s.log === largestLog)!
const biggest = [...sizes].sort((a, b) => b.bytes - a.bytes)[0]!
emit(`report size, largest corpus log (${largestLog}, ${(statSync(`${corpus}${largestLog}`).size / MB).toFixed(1)} MB)`, Math.round(largest.bytes / 1024), 'kB', {target: '< 1024 kB', met: largest.bytes < MB})
emit(`report size, largest report of the corpus (${biggest.log})`, Math.round(biggest.bytes / 1024), 'kB', {target: '< 1024 kB', met: biggest.bytes < MB, note: `${sizes.length} logs`})
emit('report size, TASK-DB-003 fixture', Math.round(Buffer.byteLength(db003.html) / 1024), 'kB')
emit(`render in Node, ${largestLog}`, Number(largest.renderMs.toFixed(1)), 'ms', {note: `renderAnalyzeHtml alone, median of ${ROUNDS}`})

if (!chromiumInstalled()) {
  emit('render in chromium', 'skipped', '', {note: '/usr/bin/chromium is not installed (apt-get install chromium)'})
} else {
  const times = await browserTimes([largest.file, biggest.file, db003File])
  const t = times.get(largest.file)!
  emit(`render in chromium, ${largestLog} report`, Math.round(t.shown), 'ms', {target: '< 1000 ms', met: t.shown < 1000, note: `navigation start → 2 frames after load, median of ${ROUNDS} fresh pages; first contentful paint ${t.fcp === null ? '?' : Math.round(t.fcp)} ms`})
  if (biggest.file !== largest.file) {
    const b = times.get(biggest.file)!
    emit(`render in chromium, ${biggest.log} report`, Math.round(b.shown), 'ms', {target: '< 1000 ms', met: b.shown < 1000})
  }
  const d = times.get(db003File)!
  emit('render in chromium, TASK-DB-003 report', Math.round(d.shown), 'ms', {note: `first contentful paint ${d.fcp === null ? '?' : Math.round(d.fcp)} ms`})
}
