// A fresh process for one ingest measurement (run by ingest.bench.ts): plain JS, so that with the
// compiled ingest no TypeScript loader sits in the memory measured. argv: LOG MODULE [floor]
// With `floor`, only what any line-by-line reading must do: the ingest's own line splitter, and every
// line decoded to a string (line-splitter.ts beside MODULE), nothing done with the lines.
import {closeSync, openSync, readSync, statSync} from 'node:fs'

const [file, module, mode] = process.argv.slice(2)
const {createLogIngest} = mode === 'floor' ? await floorIngest(module) : await import(module)

/** The ingest's interface around the line splitter alone. */
async function floorIngest(ingestModule) {
  const {createByteLineSplitter, decodeLine} = await import(ingestModule.replace(/ingest\.(ts|js)$/, 'line-splitter.$1'))
  return {
    createLogIngest() {
      let lines = 0
      let chars = 0
      const splitter = createByteLineSplitter((buf, start, end) => {
        lines++
        chars += decodeLine(buf, start, end).length
      })
      return {
        startFile() {},
        pushBytes: (chunk) => splitter.push(chunk),
        finish() {
          splitter.end()
          return {tasks: [], attempts: [], lines, chars}
        },
      }
    },
  }
}
const CHUNK = 1 << 20
const size = statSync(file).size
const marks = [0.25, 0.5, 0.75, 1]
const rssAt = []
const ingest = createLogIngest()
ingest.startFile('large.log')
const fd = openSync(file, 'r')
const buf = Buffer.allocUnsafe(CHUNK)
let bytes = 0
const t0 = performance.now()
for (;;) {
  const n = readSync(fd, buf, 0, CHUNK, null)
  if (n === 0) break
  ingest.pushBytes(buf.subarray(0, n))
  bytes += n
  while (marks.length > 0 && bytes >= marks[0] * size) {
    marks.shift()
    rssAt.push(process.memoryUsage().rss)
  }
}
closeSync(fd)
const run = ingest.finish()
const seconds = (performance.now() - t0) / 1000
const turns = run.tasks.reduce((a, t) => a + t.turns.length, 0)
console.log(JSON.stringify({bytes, seconds, maxRss: process.resourceUsage().maxRSS * 1024, rssAt, tasks: run.tasks.length, attempts: run.attempts.length, turns}))
