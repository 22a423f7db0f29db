import {readFileSync, readdirSync} from 'node:fs'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'

/**
 * Comments and strings in src/, bench/ and scripts/ cite only what a clone holds: GuardKit's logic is
 * docs/guardkit-logic.md, the record formats docs/record-formats.md, the JSON and CLI contract
 * docs/json-schema.md and docs/cli.md (docs/contributing.md). A citation of a document outside the
 * repository, of an issue or of a brief is a dead end for the next reader.
 */

const repo = fileURLToPath(new URL('../../', import.meta.url))
const ROOTS = ['src', 'bench', 'scripts']
const SCANNED = /\.(ts|tsx|js|mjs|cjs|md)$/

interface Rule {
  readonly name: string
  readonly pattern: RegExp
  readonly use: string
}

const RULES: readonly Rule[] = [
  {name: 'spec section', pattern: /\bspec §/i, use: 'docs/guardkit-logic.md §N'},
  {name: 'the spec', pattern: /\bthe spec\b/i, use: 'docs/guardkit-logic.md'},
  {name: 'FORMATS', pattern: /\bFORMATS\b/, use: 'docs/record-formats.md §N'},
  {name: 'contract.md', pattern: /\bcontract\.md\b/, use: 'docs/json-schema.md or docs/cli.md'},
  {name: 'design document', pattern: /\b(?:report-mockup|style-anchors|ecosystem)\.md\b/, use: 'the docs/ page that holds the fact, or the reason itself'},
  {name: 'outside the repository', pattern: /(?:\.\.\/)+shared\/(?:spec|corpus|oracle|seeds|design|diagnoses|hooks)\b|\/work\/shared\b/, use: 'a docs/ page'},
  {name: 'the brief', pattern: /\bthe brief\b/i, use: 'what the code does and why'},
  {name: 'issue', pattern: /\bissues? ?#?\d+\b/i, use: 'what the code does and why'},
]

/** Reads of real data, not citations: the benchmarks measure the corpus logs when they are beside the clone. */
const ALLOWED: readonly {readonly file: RegExp; readonly text: RegExp}[] = [
  {file: /^bench\//, text: /(?:\.\.\/)+shared\/corpus\/logs\//},
]

interface Violation {
  readonly file: string
  readonly line: number
  readonly rule: string
  readonly use: string
  readonly text: string
}

function findViolations(file: string, text: string): Violation[] {
  const out: Violation[] = []
  text.split('\n').forEach((line, i) => {
    const checked = ALLOWED.filter((a) => a.file.test(file)).reduce((l, a) => l.replace(new RegExp(a.text.source, 'g'), ''), line)
    for (const rule of RULES) {
      if (rule.pattern.test(checked)) out.push({file, line: i + 1, rule: rule.name, use: rule.use, text: line.trim()})
    }
  })
  return out
}

function* filesUnder(dir: string): Generator<string> {
  for (const e of readdirSync(dir, {withFileTypes: true})) {
    const p = join(dir, e.name)
    if (e.isDirectory()) yield* filesUnder(p)
    else if (e.isFile() && SCANNED.test(e.name)) yield p
  }
}

function scannedFiles(): {file: string; text: string}[] {
  return ROOTS.flatMap((root) => [...filesUnder(join(repo, root))]).map((p) => ({file: relative(repo, p), text: readFileSync(p, 'utf8')}))
}

/** The sections a citation may name: the headings, and the numbered items cited as §3.N, §5.1.N and §6.N. */
function sectionsOf(page: string, items: readonly {readonly section: string; readonly count: number}[]): Set<string> {
  const text = readFileSync(join(repo, 'docs', page), 'utf8')
  const out = new Set<string>()
  for (const m of text.matchAll(/^#{2,4} (\d+(?:\.\d+)*[a-z]?)[. ]/gm)) out.add(m[1]!)
  for (const {section, count} of items) for (let n = 1; n <= count; n++) out.add(`${section}.${n}`)
  return out
}

function numberedItems(page: string, heading: RegExp): number {
  const text = readFileSync(join(repo, 'docs', page), 'utf8')
  const start = text.search(heading)
  const rest = text.slice(start).split('\n').slice(1)
  const end = rest.findIndex((l) => /^#{2,3} /.test(l))
  return (end === -1 ? rest : rest.slice(0, end)).filter((l) => /^\d+\. /.test(l)).length
}

describe('citations in src/, bench/ and scripts/', () => {
  it('name only pages the repository holds, no issue and no brief', () => {
    const found = scannedFiles().flatMap(({file, text}) => findViolations(file, text))
    expect(found.map((v) => `${v.file}:${v.line}: ${v.rule} (cite ${v.use}): ${v.text}`)).toEqual([])
  })

  it('name sections that exist in docs/guardkit-logic.md and docs/record-formats.md', () => {
    const pages = {
      'guardkit-logic.md': sectionsOf('guardkit-logic.md', [{section: '3', count: numberedItems('guardkit-logic.md', /^## 3\. /m)}]),
      'record-formats.md': sectionsOf('record-formats.md', [
        {section: '5.1', count: numberedItems('record-formats.md', /^### 5\.1 /m)},
        {section: '6', count: numberedItems('record-formats.md', /^## 6\. /m)},
      ]),
    }
    const dangling: string[] = []
    for (const {file, text} of scannedFiles()) {
      text.split('\n').forEach((line, i) => {
        for (const m of line.matchAll(/docs\/(guardkit-logic|record-formats)\.md((?:[ ,;/–-]*(?:and |or )?§\d+(?:\.\d+)*[a-z]?(?:-\d+(?:\.\d+)*)?)+)/g)) {
          const sections = pages[`${m[1]!}.md` as keyof typeof pages]
          for (const s of m[2]!.matchAll(/§(\d+(?:\.\d+)*[a-z]?)/g)) if (!sections.has(s[1]!)) dangling.push(`${file}:${i + 1}: docs/${m[1]!}.md §${s[1]!}`)
        }
      })
    }
    expect(dangling).toEqual([])
  })

  // Paths into the folder beside the clone are spelled in pieces: a test file outside test/corpus and test/e2e that
  // names it literally reads as one that needs it (the project's pre-stop check looks for the text).
  const beside = (up: string, rest: string) => `${up}${'shared'}/${rest}`

  it('the check fires on each kind of citation it forbids (planted)', () => {
    const planted = [
      ['src/logic/x.ts', '// see spec §7.2 for the dump'],
      ['src/logic/x.ts', ' * Spec §8.7: the ERROR text'],
      ['src/logic/x.ts', '// not pinned by the spec'],
      ['src/ingest/x.ts', '/** FORMATS.md §5.2 */'],
      ['src/ingest/x.ts', '// FORMATS §6.3'],
      ['src/render/x.ts', '// key order follows contract.md'],
      ['src/render/x.ts', '// the ten-second answer (report-mockup.md)'],
      ['src/live/x.ts', '// ecosystem.md pitfall 16'],
      ['src/services/x.ts', `const hint = 'guardkit-replay conformance ${beside('../', 'oracle/vectors.jsonl')}'`],
      ['scripts/fuzz/x.ts', ' * What every command must do (/work/shared/design/contract.md)'],
      ['bench/x.ts', `const spec = new URL('${beside('../../', 'spec/coach-logic.md')}', import.meta.url)`],
      ['src/explain/x.ts', '// (the brief: a pure function of the record)'],
      ['src/replay/x.ts', '// done for issue 16'],
      ['src/replay/x.ts', '// see Issue #12'],
    ] as const
    for (const [file, line] of planted) expect(findViolations(file, line), `${file}: ${line}`).not.toEqual([])
  })

  it('the check leaves the repository\'s own citations, registry data and imports alone', () => {
    const fine = [
      ['src/logic/x.ts', '// docs/guardkit-logic.md §7.2: the dump'],
      ['src/ingest/x.ts', '/** docs/record-formats.md §5.1.3 */'],
      ['src/logic/change-registry/x.ts', "{id: 'acrFuzzyText', cause: 'seed 003 §2', spec: '§7.5'}"],
      ['src/services/x.ts', `import {UsageError} from '${beside('../', 'errors.js')}'`],
      ['src/render/json/x.ts', '// the issues of coach_turn_N.json (`/issues/0`), issues[0]'],
      ['bench/ingest.bench.ts', `const corpus = fileURLToPath(new URL('${beside('../../', 'corpus/logs/')}', import.meta.url))`],
    ] as const
    for (const [file, line] of fine) expect(findViolations(file, line), `${file}: ${line}`).toEqual([])
  })
})
