import fc from 'fast-check'

/**
 * pytest output as it reaches GuardKit's feedback (docs/guardkit-logic.md §6.6, §8.3-8.4): node ids, summary lines,
 * durations, percentages, tracebacks. Formats follow pytest's terminal reporter: counts pluralise only
 * `error(s)` and `warning(s)`; a session of a minute or more prints `75.31s (0:01:15)`.
 */

const identStart = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz')
const identChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_')
export const identifier = fc.tuple(identStart, fc.array(identChar, {maxLength: 10})).map(([a, b]) => a + b.join(''))
/** Python identifiers may be non-ASCII (PEP 3131). */
export const unicodeIdentifier = fc.oneof(
  {weight: 4, arbitrary: identifier},
  {weight: 1, arbitrary: fc.tuple(identifier, fc.constantFrom('é', 'ü', 'ñ', 'ß', 'Ω', '名前')).map(([a, b]) => a + b)},
)
const className = fc.tuple(fc.constantFrom('Test'), fc.constantFrom('User', 'UserCreate', 'UserCRUD', 'Config', 'Api', 'Cache', 'Ünicode')).map(([a, b]) => a + b)

export const testModulePath = fc
  .tuple(fc.array(unicodeIdentifier, {maxLength: 3}), unicodeIdentifier, fc.boolean())
  .map(([dirs, name, prefix]) => ['tests', ...dirs, prefix ? `test_${name}.py` : `${name}_test.py`].join('/'))

/** A parametrize id without whitespace: `param-1`, `1.5-True`, `é`, `😀`. */
export const paramId = fc.oneof(
  fc.tuple(identifier, fc.nat({max: 20})).map(([a, n]) => `${a}-${n}`),
  fc.constantFrom('1.5-True', 'None', 'é', '\u{1F600}', 'a/b', 'x::y', '50%', 'line-3', '0.5s'),
)
/** A parametrize id with a space, as pytest writes `ids=["a b"]`. */
export const paramIdWithSpace = fc.tuple(identifier, identifier).map(([a, b]) => `${a} ${b}`)

/** `tests/a/test_b.py::TestC::test_d[param-1]`, without whitespace (one token). */
export const nodeId = fc
  .tuple(testModulePath, fc.option(className, {nil: undefined}), unicodeIdentifier, fc.option(paramId, {nil: undefined}))
  .map(([mod, cls, fn, param]) => `${mod}::${cls ? `${cls}::` : ''}test_${fn}${param === undefined ? '' : `[${param}]`}`)
/** The same node id as a Windows agent would print it. */
export const windowsNodeId = fc.tuple(fc.constantFrom('C:\\wt\\', 'D:\\work\\proj\\', ''), testModulePath, identifier).map(([drive, mod, fn]) => `${drive}${mod.replaceAll('/', '\\')}::test_${fn}`)

/** Decimal digits CPython 3.11's `re` `\d` knows (ASCII, Arabic-Indic, Devanagari, fullwidth). */
const DIGIT_SETS = ['0123456789', '٠١٢٣٤٥٦٧٨٩', '०१२३४५६७८९', '０１２３４５６７８９'] as const
/** A decimal number, mostly ASCII, sometimes in another script's digits (Python's `\d` is Unicode). */
export const digits = fc
  .tuple(fc.nat({max: 99999}), fc.nat({max: 9}))
  .map(([n, which]) => {
    const set = which < 7 ? DIGIT_SETS[0] : DIGIT_SETS[which - 6]!
    return String(n).replace(/\d/g, (d) => set[Number(d)]!)
  })

export const COUNT_WORDS = ['passed', 'failed', 'error', 'errors', 'skipped', 'warning', 'warnings'] as const
/** Outcome words pytest prints that `_STALL_NORMALIZE_PATTERNS` #5 does not list. */
export const UNNORMALISED_COUNT_WORDS = ['deselected', 'xfailed', 'xpassed', 'rerun'] as const

/** pytest's own plural rule: only `error` and `warning` take an `s`. */
export function pytestCountWord(word: 'passed' | 'failed' | 'error' | 'skipped' | 'warning', n: number): string {
  return (word === 'error' || word === 'warning') && n !== 1 ? `${word}s` : word
}

/** `1.73` (two decimals, under a minute) as pytest prints a short session. */
export const shortSeconds = fc.tuple(fc.nat({max: 59}), fc.nat({max: 99})).map(([s, cs]) => `${s}.${String(cs).padStart(2, '0')}`)
/** A session of a minute or more: `75.31s (0:01:15)`. */
export const longSessionDuration = fc.tuple(fc.integer({min: 60, max: 20000}), fc.nat({max: 99})).map(([s, cs]) => {
  const hms = `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
  return {seconds: s, text: `${s}.${String(cs).padStart(2, '0')}s (${hms})`}
})

/** `==== 1 failed, 2 passed, 3 warnings in 1.73s ====` */
export const summaryLine = fc
  .tuple(
    fc.nat({max: 5}),
    fc.nat({max: 50}),
    fc.nat({max: 3}),
    fc.nat({max: 4}),
    fc.oneof(shortSeconds.map((s) => `${s}s`), longSessionDuration.map((d) => d.text)),
    fc.integer({min: 4, max: 30}),
  )
  .map(([failed, passed, errors, warnings, duration, bar]) => {
    const parts: string[] = []
    if (failed) parts.push(`${failed} failed`)
    if (passed) parts.push(`${passed} passed`)
    if (errors) parts.push(`${errors} ${pytestCountWord('error', errors)}`)
    if (warnings) parts.push(`${warnings} ${pytestCountWord('warning', warnings)}`)
    if (parts.length === 0) parts.push('no tests ran')
    const eq = '='.repeat(bar)
    return `${eq} ${parts.join(', ')} in ${duration} ${eq}`
  })

export const percent = fc.oneof(fc.nat({max: 100}).map((n) => `${n}%`), fc.tuple(fc.nat({max: 99}), fc.nat({max: 99})).map(([a, b]) => `${a}.${b}%`))

export const exceptionName = fc.constantFrom('AssertionError', 'OperationalError', 'sqlalchemy.exc.OperationalError', 'ModuleNotFoundError', 'KeyError', 'TypeError', 'ConnectionRefusedError')

/** A Python traceback frame line: `  File "/…/x.py", line 42, in test_x`. */
export const tracebackFrame = fc
  .tuple(fc.constantFrom('/Users/x/proj/.guardkit/worktrees/FEAT-X/', '/usr/lib/python3.11/', '', 'C:\\wt\\'), testModulePath, digits, identifier)
  .map(([dir, mod, n, fn]) => `  File "${dir}${mod}", line ${n}, in ${fn}`)

export const traceback = fc
  .tuple(fc.array(tracebackFrame, {minLength: 1, maxLength: 3}), exceptionName, fc.string({maxLength: 30}))
  .map(([frames, exc, msg]) => ['Traceback (most recent call last):', ...frames, `${exc}: ${msg}`].join('\n'))

/** `FAILED tests/a.py::t - AssertionError` and friends. */
export const failedLine = fc.tuple(fc.constantFrom('FAILED', 'ERROR'), nodeId, exceptionName).map(([k, id, e]) => `${k} ${id} - ${e}`)

/** A chunk of test output as `_summarize_test_output` sees it. */
export const testOutput = fc
  .array(
    fc.oneof(
      summaryLine,
      failedLine,
      traceback,
      tracebackFrame,
      fc.constantFrom('============================= test session starts ==============================', 'collected 3 items', '', 'E   assert 1 == 2', 'tests/users/test_users.py:12: OperationalError'),
      fc.string({maxLength: 40}),
    ),
    {maxLength: 25},
  )
  .map((lines) => lines.join('\n'))
