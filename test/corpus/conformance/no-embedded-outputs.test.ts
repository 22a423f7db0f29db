import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'

const repo = fileURLToPath(new URL('../../..', import.meta.url))
const vectorsFile = join(repo, '../shared/oracle/vectors.jsonl')
const specFile = join(repo, 'docs/guardkit-logic.md')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.(ts|tsx)$/.test(name) ? [p] : []
  })
}

function stringLeaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) for (const v of value) stringLeaves(v, out)
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringLeaves(v, out)
  return out
}

/**
 * Conformance must be earned by the logic (docs/contributing.md "Oracle vectors and conformance"): no
 * oracle output may be pasted into src/. Checked: every md5 signature output, every whole structured
 * output, and every string in an output that is long enough to be distinctive — except texts
 * docs/guardkit-logic.md itself quotes as GuardKit's message formats, which the model legitimately
 * contains.
 */
describe('no oracle vector output is embedded in src/', () => {
  it('finds none', () => {
    const spec = readFileSync(specFile, 'utf8')
    const src = sourceFiles(join(repo, 'src')).map((f) => ({f, text: readFileSync(f, 'utf8')}))
    const needles = new Set<string>()
    for (const line of readFileSync(vectorsFile, 'utf8').split('\n')) {
      if (!line.trim()) continue
      const {output} = JSON.parse(line) as {output: unknown}
      if (typeof output === 'string' && /^[0-9a-f]{8}$/.test(output)) needles.add(output)
      if (output && typeof output === 'object') {
        const whole = JSON.stringify(output)
        if (whole.length >= 40) needles.add(whole)
      }
      for (const s of stringLeaves(output)) {
        if (s.length >= 60 && !spec.includes(s) && !spec.includes(JSON.stringify(s).slice(1, -1))) {
          needles.add(s)
          needles.add(JSON.stringify(s).slice(1, -1))
        }
      }
    }
    const hits: string[] = []
    for (const needle of needles) {
      for (const {f, text} of src) if (text.includes(needle)) hits.push(`${f.slice(repo.length)}: ${needle.slice(0, 80)}`)
    }
    expect(hits).toEqual([])
  })
})
