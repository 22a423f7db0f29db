import {readFileSync} from 'node:fs'
import {resolve} from 'node:path'
import {analyzeJson, inspectJson} from './commands.js'
import {describeCase} from './describe-case.js'
import {materialise} from './materialise.js'
import type {RunCase} from './model/types.js'

/**
 * Writes a case (a `case.json` kept by the fuzzer, or a file of test/fuzz/regressions/) to a folder, for a
 * person to look at or to debug with:
 *
 *   node --import tsx scripts/fuzz/write-case.ts test/fuzz/regressions/turn-zero-from-file-name.json /tmp/case
 */
const [file, dir] = process.argv.slice(2)
if (file === undefined || dir === undefined) {
  console.error('usage: node --import tsx scripts/fuzz/write-case.ts CASE.json DIR  (DIR must not exist)')
  process.exit(2)
}
const json = JSON.parse(readFileSync(file, 'utf8')) as {case?: RunCase} & RunCase
const c = json.case ?? json
const m = materialise(c, resolve(dir))
console.log(describeCase(c))
if (m.skipped.length > 0) console.log(`not written: ${m.skipped.join('; ')}`)
const quote = (a: string) => `'${a.replaceAll("'", "'\\''")}'`
for (const spec of [analyzeJson(m.arg.path), inspectJson(m.arg.path)]) {
  console.log(`${m.arg.cwd === null ? '' : `(cd ${quote(m.arg.cwd)} && `}node bin/run.js ${spec.argv.map(quote).join(' ')}${m.arg.cwd === null ? '' : ')'}`)
}
