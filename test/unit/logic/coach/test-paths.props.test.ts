import {fc, test} from '../../../helpers/prop.js'
import {describe, expect, it} from 'vitest'
import type {LogicFlags} from '../../../../src/logic/changes.js'
import {detectTestsFromResults, normalizeToRelative} from '../../../../src/logic/coach/test-paths.js'
import {NULL_SINK} from '../../../../src/logic/log-sink.js'
import {createVirtualWorktree} from '../../../../src/logic/worktree.js'
import {
  anyJsString,
  byCodePoint,
  canonicalOtherFile,
  canonicalRelPath,
  canonicalTestFile,
  hardText,
  nonCanonicalForms,
  runs,
  worktreeRoot,
} from '../../../helpers/arbitraries/index.js'
import {FIXED, LEGACY} from '../../../helpers/flags.js'

type Form = 'abs' | 'rel' | 'outside'
interface Mention {
  readonly file: number
  readonly form: Form
  readonly list: 'files_created' | 'files_modified'
}

/** A worktree, the files it could hold, the ones it does hold, and the file lists naming them. */
const scenario = fc
  .tuple(worktreeRoot, fc.uniqueArray(fc.oneof({weight: 3, arbitrary: canonicalTestFile}, {weight: 1, arbitrary: canonicalOtherFile}), {minLength: 1, maxLength: 6}))
  .chain(([root, files]) =>
    fc.record({
      root: fc.constant(root),
      files: fc.constant(files),
      existing: fc.subarray(files),
      mentions: fc.array(
        fc.record({
          file: fc.nat({max: files.length - 1}),
          form: fc.constantFrom<Form>('abs', 'abs', 'rel', 'rel', 'outside'),
          list: fc.constantFrom('files_created' as const, 'files_modified' as const),
        }),
        {minLength: 1, maxLength: 12},
      ),
    }),
  )
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never

function spelled(s: Scenario, m: Mention): string {
  const rel = s.files[m.file]!
  // `${root}-other` shares the root's string prefix but is not under it.
  return m.form === 'rel' ? rel : m.form === 'abs' ? `${s.root}/${rel}` : `${s.root}-other/${rel}`
}

function twrOf(s: Scenario, mentions: readonly Mention[] = s.mentions): Record<string, string[]> {
  const twr: Record<string, string[]> = {files_created: [], files_modified: []}
  for (const m of mentions) twr[m.list]!.push(spelled(s, m))
  return twr
}

function detect(s: Scenario, flags: LogicFlags, twr: unknown = twrOf(s)): string | null {
  const view = createVirtualWorktree({root: s.root, files: Object.fromEntries(s.existing.map((f) => [f, null])), missing: 'absent'})
  return detectTestsFromResults(twr, view, flags, NULL_SINK)
}

/** `Path(p).name` of a canonical path, and the docs/guardkit-logic.md §6.5 name rule. */
const isTestName = (p: string) => {
  const name = p.slice(p.lastIndexOf('/') + 1)
  return (name.startsWith('test_') && name.endsWith('.py')) || name.endsWith('_test.py')
}
const command = (files: readonly string[]) => (files.length === 0 ? null : `pytest ${files.join(' ')} -v --tb=short`)
const sortedUnique = (xs: readonly string[]) => [...new Set(xs)].sort(byCodePoint)

/** What docs/guardkit-logic.md §6.5 says each profile runs, computed from the scenario (not from the model). */
function expected(s: Scenario, fixed: boolean): string | null {
  const named = s.mentions.filter((m) => m.form !== 'outside' && isTestName(s.files[m.file]!) && s.existing.includes(s.files[m.file]!))
  return command(sortedUnique(named.map((m) => (fixed ? s.files[m.file]! : spelled(s, m)))))
}

/** The files a pytest command names. Scenario paths may hold spaces, so split on the known entries. */
function entries(s: Scenario, cmd: string | null): string[] {
  if (cmd === null) return []
  const body = cmd.slice('pytest '.length, -' -v --tb=short'.length)
  const known = sortedUnique(s.files.flatMap((f) => [f, `${s.root}/${f}`])).sort((a, b) => b.length - a.length)
  const out: string[] = []
  let rest = body
  while (rest.length > 0) {
    const hit = known.find((k) => rest === k || rest.startsWith(k + ' '))
    if (hit === undefined) throw new Error(`unexpected entry in ${JSON.stringify(cmd)}`)
    out.push(hit)
    rest = rest.slice(hit.length + 1)
  }
  return out
}

const anyPath = fc.oneof(
  canonicalRelPath,
  fc.tuple(worktreeRoot, canonicalRelPath).chain(([root, rel]) => fc.constantFrom(`${root}/${rel}`, ...Object.values(nonCanonicalForms(root, rel)))),
  hardText({maxLength: 20}),
  anyJsString,
  fc.constantFrom('', '/', '.', '..', '//', '///x', '/worktree/root', '/worktree/root/'),
)

// docs/guardkit-logic.md §6.5 `_normalize_to_relative` (fixed, D20) and docs/guardkit-logic.md §3.11 pathlib.
describe('_normalize_to_relative (docs/guardkit-logic.md §6.5)', () => {
  test.prop([anyPath, worktreeRoot], runs(500))('is idempotent, for any string', (path, root) => {
    const once = normalizeToRelative(path, root)
    expect(normalizeToRelative(once, root)).toBe(once)
  })

  test.prop([canonicalRelPath, worktreeRoot], runs(500))('maps `worktree/p` and `p` to the same result, `p`, for canonical p', (rel, root) => {
    expect(normalizeToRelative(`${root}/${rel}`, root)).toBe(rel)
    expect(normalizeToRelative(rel, root)).toBe(rel)
  })
})

// docs/guardkit-logic.md §6.5 `_detect_tests_from_results`: the absolute/relative duplicate
// (fixtures/runs/db-003-timeout) and its fix (D20).
describe('_detect_tests_from_results dedup (docs/guardkit-logic.md §6.5, canonical paths)', () => {
  test.prop([scenario], runs(400))('fixed never lists two entries naming the same file, whatever mix of absolute and relative forms', (s) => {
    const cmd = detect(s, FIXED)
    expect(cmd).toBe(expected(s, true))
    const named = entries(s, cmd).map((e) => (e.startsWith(`${s.root}/`) ? e.slice(s.root.length + 1) : e))
    expect(new Set(named).size).toBe(named.length)
  })

  const reordered = scenario.chain((s) =>
    fc.record({
      s: fc.constant(s),
      order: fc.shuffledSubarray([...s.mentions], {minLength: s.mentions.length, maxLength: s.mentions.length}),
      moves: fc.array(fc.boolean(), {minLength: s.mentions.length, maxLength: s.mentions.length}),
      repeat: fc.nat({max: s.mentions.length - 1}),
    }),
  )
  test.prop([reordered], runs(300))(
    'the result does not depend on input order, repetition or which list names a file (legacy and fixed)',
    ({s, order, moves, repeat}) => {
      const moved = order.map((m, i) => (moves[i] ? {...m, list: m.list === 'files_created' ? ('files_modified' as const) : ('files_created' as const)} : m))
      const again = [...moved, moved[repeat]!]
      for (const flags of [FIXED, LEGACY]) expect(detect(s, flags, twrOf(s, again))).toBe(detect(s, flags))
    },
  )

  test.prop([scenario], runs(300))('legacy keeps the absolute/relative duplicates exactly as GuardKit did', (s) => {
    const cmd = detect(s, LEGACY)
    expect(cmd).toBe(expected(s, false))
    // Each existing test file named in both forms is run twice.
    for (const f of s.existing.filter(isTestName)) {
      const forms = new Set(s.mentions.filter((m) => s.files[m.file] === f && m.form !== 'outside').map((m) => m.form))
      expect(entries(s, cmd).filter((e) => e === f || e === `${s.root}/${f}`)).toHaveLength(forms.size)
    }
  })
})

const ROOT = '/worktree/root'
const detectIn = (existing: readonly string[], twr: unknown, flags: LogicFlags) =>
  detectTestsFromResults(twr, createVirtualWorktree({root: ROOT, files: Object.fromEntries(existing.map((f) => [f, null])), missing: 'absent'}), flags, NULL_SINK)

/**
 * The wanted commands of the named cases are GuardKit's own outputs (the oracle vectors named in each
 * title; the corpus tier checks them against the vectors: test/corpus/logic/coach/test-paths.test.ts).
 * Outside canonical paths GuardKit's dedup is incomplete (docs/guardkit-logic.md §6.5: "so `./tests/x.py` and `tests/x.py`
 * still both survive"). These are not bugs of the model: the model reproduces them.
 */
describe('where fixed still runs one file twice (named counterexamples, docs/guardkit-logic.md §6.5)', () => {
  it('`./tests/test_a.py` and `tests/test_a.py` are both run (detect_tests_from_results#6)', () => {
    const input = {existing_files: ['tests/test_a.py'], task_work_results: {files_created: ['./tests/test_a.py', 'tests/test_a.py']}}
    const want = 'pytest ./tests/test_a.py tests/test_a.py -v --tb=short'
    expect(detectIn(input.existing_files, input.task_work_results, FIXED)).toBe(want)
    expect(detectIn(input.existing_files, input.task_work_results, LEGACY)).toBe(want)
  })

  it('a relative path is never touched: `./tests/test_a.py` stays (normalize_to_relative#5)', () => {
    const input = {worktree: ROOT, filepath: './tests/test_a.py'}
    expect(normalizeToRelative(input.filepath, ROOT)).toBe('./tests/test_a.py')
  })

  it('`..` is kept lexically: `/worktree/root/../root/tests/test_a.py` → `../root/tests/test_a.py` (normalize_to_relative#7)', () => {
    const input = {worktree: ROOT, filepath: '/worktree/root/../root/tests/test_a.py'}
    expect(normalizeToRelative(input.filepath, ROOT)).toBe('../root/tests/test_a.py')
  })

  // CPython 3.11.7, docs/guardkit-logic.md §6.5 transliterated over a real directory (test/fixtures/cpython/cpython_oracle.py's rules).
  it('so fixed runs `../root/tests/test_a.py` and `tests/test_a.py` (CPython)', () => {
    expect(detectIn(['tests/test_a.py'], {files_created: ['/worktree/root/../root/tests/test_a.py', 'tests/test_a.py']}, FIXED)).toBe(
      'pytest ../root/tests/test_a.py tests/test_a.py -v --tb=short',
    )
  })

  it('a relative path with a trailing slash is a second entry: `tests/test_a.py/` (CPython)', () => {
    const want = 'pytest tests/test_a.py tests/test_a.py/ -v --tb=short'
    expect(detectIn(['tests/test_a.py'], {files_created: ['tests/test_a.py/', 'tests/test_a.py']}, FIXED)).toBe(want)
    expect(detectIn(['tests/test_a.py'], {files_created: ['tests/test_a.py/', 'tests/test_a.py']}, LEGACY)).toBe(want)
  })

  it('Windows paths are never recognised on POSIX (detect_tests_from_results#7)', () => {
    const input = {existing_files: ['tests/test_a.py'], task_work_results: {files_created: ['tests\\test_a.py', 'C:\\wt\\tests\\test_a.py']}}
    expect(detectIn(input.existing_files, input.task_work_results, FIXED)).toBeNull()
  })

  // A model bug, not a GuardKit one (docs/properties.md, "Failures found"): `Path("//worktree/root/x").exists()`
  // is true on Linux and macOS (the kernel reads `//` as `/`), and `relative_to` refuses the `//` anchor, so
  // GuardKit runs the file under its `//` spelling too (CPython 3.11.7 over a real directory). The model's
  // worktree view answers "absent" for every `//` path.
  test.prop([worktreeRoot, canonicalTestFile], {...runs(200), examples: [['/worktree/root', 'tests/test_a.py']]})(
    'a `//`-rooted spelling of an existing test file is found and kept as written, like the OS finds it',
    (root, rel) => {
      const view = () => createVirtualWorktree({root, files: {[rel]: null}, missing: 'absent'})
      const twr = {files_created: [`/${root}/${rel}`, rel]}
      const want = command(sortedUnique([`/${root}/${rel}`, rel]))
      expect(detectTestsFromResults(twr, view(), FIXED, NULL_SINK)).toBe(want)
      expect(detectTestsFromResults(twr, view(), LEGACY, NULL_SINK)).toBe(want)
    },
  )
})
