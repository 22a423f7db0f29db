import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

/**
 * The results of test/fixtures/cpython/cpython_oracle.py, run by hand with CPython 3.11 and committed as
 * test/fixtures/cpython/cpython-cases.json (docs/properties.md, "Independent oracles"). Nothing here runs
 * Python at test time.
 */
export interface CpythonCases {
  readonly python: string
  readonly unicode: string
  readonly worktree: string
  readonly tables: {
    readonly isspace: readonly (readonly [number, number])[]
    readonly re_s: readonly (readonly [number, number])[]
    readonly isdigit: readonly (readonly [number, number])[]
    readonly re_d: readonly (readonly [number, number])[]
    readonly unassigned: readonly (readonly [number, number])[]
    readonly lower: Readonly<Record<string, string>>
  }
  readonly stall: readonly {feedback: string; normalized: string; legacy: string; fixed: string}[]
  readonly stallSequences: readonly {threshold: number; calls: [string, number][]; legacy: boolean[]; fixed: boolean[]}[]
  readonly normalizeToRelative: readonly {filepath: string; out: string}[]
  readonly detectTestsFromResults: readonly {existing_files: string[]; task_work_results: unknown; legacy: string | null; fixed: string | null}[]
  readonly isValidFilePath: readonly {path: string; out: boolean}[]
  readonly stripCriterionPrefix: readonly {text: string; out: string}[]
  readonly extractKeywords: readonly {text: string; out: string[]}[]
  readonly matchByText: readonly {acceptance_criteria: string[]; requirements_met: string[]; results: [string, string][]}[]
  /** `json.loads(text)`: `str(JSONDecodeError)`, or `repr()` and `json.dumps()` of the value. */
  readonly jsonLoads: readonly ({text: string; error: string} | {text: string; repr: string; dumps: string})[]
}

export const CPYTHON: CpythonCases = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/cpython/cpython-cases.json', import.meta.url)), 'utf8')) as CpythonCases

export function inRanges(ranges: readonly (readonly [number, number])[], cp: number): boolean {
  let lo = 0
  let hi = ranges.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const [a, b] = ranges[mid]!
    if (cp < a) hi = mid - 1
    else if (cp > b) lo = mid + 1
    else return true
  }
  return false
}

/** `ch.isdigit()` in CPython 3.11 (one code point). */
export function cpythonIsDigit(ch: string): boolean {
  return inRanges(CPYTHON.tables.isdigit, ch.codePointAt(0)!)
}

/** Unicode 14 (CPython 3.11) has not assigned this code point. */
export function unassignedInCpython(cp: number): boolean {
  return inRanges(CPYTHON.tables.unassigned, cp)
}

/** Every code point of `s` is one CPython 3.11 knows (properties that compare with its tables need this). */
export function knownToCpython(s: string): boolean {
  for (const ch of s) if (unassignedInCpython(ch.codePointAt(0)!)) return false
  return true
}
