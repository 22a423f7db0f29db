import {describe, expect, it} from 'vitest'
import {extractKeywords, matchByText, matchByTextTraced, stripCriterionPrefix} from '../../../../../src/logic/coach/requirements/index.js'
import {flagsOf} from './helpers.js'

const legacy = flagsOf('legacy')
const fixed = flagsOf('fixed')
const preAcr = flagsOf('pre-acr')

const evidence = (v: ReturnType<typeof matchByText>) => v.criteria_results.map((r) => r.evidence)

// Expected values: docs/guardkit-logic.md §7.5 (prose and examples) and CPython 3.11 for the percentages.
describe('_strip_criterion_prefix (docs/guardkit-logic.md §7.5)', () => {
  it('treats any str.isdigit() run as a number, circled digits included, but not fractions', () => {
    expect(stripCriterionPrefix('①. x')).toBe('x')
    expect(stripCriterionPrefix('½. x')).toBe('½. x')
    expect(stripCriterionPrefix('Ⅻ) x')).toBe('Ⅻ) x')
  })
  it('removes one prefix only, after stripping', () => {
    expect(stripCriterionPrefix('- [x] 1. done')).toBe('1. done')
    expect(stripCriterionPrefix('  * - [ ] nested')).toBe('- [ ] nested')
  })
})

describe('_extract_keywords (docs/guardkit-logic.md §7.5)', () => {
  it('drops stopwords, short words and words without letters; keeps punctuation attached', () => {
    expect(extractKeywords('There must be 2024 tests: ok')).toEqual(['tests:'])
  })
  it('is a set: repeated words count once', () => {
    expect(extractKeywords('file config FILE config')).toEqual(['config', 'file'])
  })
})

describe('_match_by_text false positives (docs/guardkit-logic.md §7.5)', () => {
  it('verifies every criterion against an empty requirement', () => {
    const v = matchByText(['Config file exists', 'Schema validated'], [''], legacy)
    expect(v.criteria_met).toBe(2)
    expect(evidence(v)).toEqual(["Substring match with ''", "Substring match with ''"])
  })
  it('iterates a string of requirements one character at a time', () => {
    const v = matchByText(['Config file exists'], 'done', fixed)
    expect(evidence(v)).toEqual(["Substring match with 'o'"])
  })
  it('lets non-breaking spaces defeat exact and substring matching but not keywords', () => {
    const v = matchByText(['Config file exists'], ['Config\u00a0file\u00a0exists'], fixed)
    expect(evidence(v)).toEqual(["Keyword overlap match (100% similarity) with 'Config\u00a0file\u00a0exists'"])
  })
})

describe('_match_by_text keyword overlap (docs/guardkit-logic.md §7.5, §3.10)', () => {
  const words = (prefix: string, n: number) => Array.from({length: n}, (_, i) => `${prefix}${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}x`)
  const pair = (shared: number, onlyCriterion: number, onlyRequirement: number) => {
    const common = words('common', shared)
    return {criterion: [...common, ...words('crit', onlyCriterion)].join(' '), requirement: [...words('reqq', onlyRequirement), ...common].join(' ')}
  }
  it('rounds exact ties half-to-even: 29/40 prints 72%, 33/40 prints 82%', () => {
    const a = pair(29, 5, 6)
    expect(evidence(matchByText([a.criterion], [a.requirement], legacy))).toEqual([`Keyword overlap match (72% similarity) with '${a.requirement}'`])
    const b = pair(33, 3, 4)
    expect(evidence(matchByText([b.criterion], [b.requirement], legacy))).toEqual([`Keyword overlap match (82% similarity) with '${b.requirement}'`])
  })
  it('accepts exactly 0.70 and rejects just below', () => {
    const at = pair(7, 1, 2)
    expect(evidence(matchByText([at.criterion], [at.requirement], legacy))[0]).toBe(`Keyword overlap match (70% similarity) with '${at.requirement}'`)
    const below = pair(16, 3, 4)
    expect(matchByText([below.criterion], [below.requirement], legacy).criteria_met).toBe(0)
  })
  it('keeps the first of equally good requirements', () => {
    const v = matchByText(['alpha beta gamma delta'], ['delta gamma beta alpha zeta', 'delta gamma beta alpha theta'], legacy)
    expect(evidence(v)).toEqual(["Keyword overlap match (80% similarity) with 'delta gamma beta alpha zeta'"])
  })
})

describe('pre-acr text matching (docs/guardkit-logic.md §7.5, seed 003)', () => {
  it('matches exactly on lower/strip only, without prefix stripping or fuzzy steps', () => {
    expect(matchByText(['- [ ] Config file exists'], ['config file EXISTS'], preAcr).criteria_met).toBe(0)
    expect(matchByText(['- [ ] Config file exists'], ['config file EXISTS'], legacy).criteria_met).toBe(1)
    expect(matchByText(['Config file exists'], ['Verified: config file exists'], preAcr).criteria_met).toBe(0)
    expect(evidence(matchByText(['  Config File Exists '], ['config file exists'], preAcr))).toEqual(["Matched in Player requirements_met: '  Config File Exists '"])
  })
})

describe('the text trace for the explainer', () => {
  it('reports the closest requirement of a near miss with its Jaccard score against the 0.70 rule', () => {
    const {traces} = matchByTextTraced(
      ['Implement user registration endpoint with email validation'],
      ['unrelated thing', 'Implemented user registration endpoint having email validation'],
      legacy,
      'requirements_met',
    )
    const t = traces[0]!
    expect(t.step).toBeNull()
    expect(t.closest?.index).toBe(1)
    expect(t.closest?.jaccard).toBe(0.625)
    expect(t.closest?.meetsRule).toBe(false)
    expect(t.threshold).toBe(0.7)
  })
  it('names the step and requirement that matched', () => {
    const {traces} = matchByTextTraced(['Config file exists'], ['zz', ''], legacy, 'requirements_addressed')
    expect(traces[0]).toMatchObject({step: 'substring', matched: '', source: 'requirements_addressed'})
  })
})
