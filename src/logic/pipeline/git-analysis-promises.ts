import {pyFindall, pyRegex} from '../python/regex.js'
import {pyLen, pyLower, pyLstrip} from '../python/strings.js'
import {criteriaTexts, criterionId, type PromiseRecord} from './file-existence-promises.js'
import {dedupeKeepOrder} from './file-paths.js'
import type {PipelineEvent} from './trace.js'

/**
 * TASK-ACR-004's git-analysis promises for state-recovery synthetic reports of non-scaffolding
 * tasks (docs/guardkit-logic.md §5.5; identical in legacy and fixed). Always `partial` at best.
 */

/** Python's `\b` is a Unicode word boundary; JS's is ASCII-only even with the `u` flag. */
const W = String.raw`[\p{L}\p{N}_]`
const B = `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`
const FILE_REF = pyRegex(String.raw`[\w./\-]+\.\w{1,5}`)
const CALL = new RegExp(`${B}(${W}+)\\(\\)`, 'gu')
const CAMEL = new RegExp(`${B}([A-Z][a-z]+(?:[A-Z][a-z]+)+)${B}`, 'gu')
const CAMEL_PART = /[A-Z][a-z]+/gu
const ENDPOINT = pyRegex(String.raw`(/[\w/\-]+)`)
const WORD = pyRegex(String.raw`[a-zA-Z_]\w*`)

/** `_KEYWORD_STOPWORDS` */
const KEYWORD_STOPWORDS = new Set(
  ('the a an and or but in on at to for of with by from is it be as that this are was were been has have had do does did ' +
    'will would should can could may might shall must not no all each every any some when if then else into via using new').split(' '),
)

/** `_extract_code_patterns(text)`: `name()` calls, CamelCase names, their lower-cased words, `/endpoints`. */
export function extractCodePatterns(text: string): string[] {
  const calls = pyFindall(CALL, text)
  const camel = pyFindall(CAMEL, text)
  const parts = camel.flatMap((c) => (c.match(CAMEL_PART) ?? []).map((w) => pyLower(w)))
  return [...calls, ...camel, ...parts, ...pyFindall(ENDPOINT, text)]
}

/**
 * `_extract_criterion_keywords(text)`: a Python set, returned here in first-seen order (GuardKit's
 * own order is hash order; callers that print it sort it).
 */
export function extractCriterionKeywords(text: string): string[] {
  const words = pyFindall(WORD, text).filter((w) => pyLen(w) > 3 && !KEYWORD_STOPWORDS.has(pyLower(w)) && !w.startsWith('AC-'))
  return dedupeKeepOrder(words.map((w) => pyLower(w)))
}

const STEP = 'AutoBuildOrchestrator._generate_git_analysis_promises'

/**
 * `_generate_git_analysis_promises(work_state, acceptance_criteria)`. GuardKit iterates a `set` of
 * changed files; the model uses first-seen order and notes where the order could show.
 */
export function generateGitAnalysisPromises(created: readonly string[], modified: readonly string[], ac: unknown, events?: PipelineEvent[]): PromiseRecord[] {
  const changed = dedupeKeepOrder([...created, ...modified])
  if (changed.length === 0) return []
  const origin = (f: string) => `${f} (${created.includes(f) ? 'created' : 'modified'})`
  return criteriaTexts(ac).map((text, i) => {
    const matchedFiles: string[] = []
    const matchedPatterns: string[] = []
    const addFile = (f: string) => {
      if (!matchedFiles.includes(f)) matchedFiles.push(f)
    }
    for (const p of pyFindall(FILE_REF, text)) for (const f of changed) if (f.endsWith(p) || f.includes(p)) addFile(f)
    for (const p of extractCodePatterns(text)) {
      const pl = pyLstrip(pyLower(p), '/')
      const hit = changed.find((f) => pyLower(f).includes(pl))
      if (hit !== undefined) {
        matchedPatterns.push(p)
        addFile(hit)
      }
    }
    const keywords = extractCriterionKeywords(text)
    if (keywords.length > 0 && matchedFiles.length === 0) {
      const ft = changed.map((f) => pyLower(f)).join(' ')
      const kws = keywords.filter((k) => ft.includes(k))
      if (kws.length >= Math.max(1, keywords.length * 0.3)) {
        if (kws.length > 3) events?.push({step: STEP, kind: 'approximate', field: 'completion_promises', values: kws, message: 'which three keywords GuardKit printed depends on set iteration order'})
        matchedPatterns.push(...kws.slice(0, 3))
      }
    }
    if (matchedFiles.length > 3) events?.push({step: STEP, kind: 'approximate', field: 'completion_promises', values: matchedFiles, message: 'which three files GuardKit printed depends on set iteration order'})
    const evidence: string[] = []
    if (matchedFiles.length > 0) evidence.push('Files: ' + matchedFiles.slice(0, 3).map(origin).join(', '))
    if (matchedPatterns.length > 0) evidence.push('Patterns: ' + matchedPatterns.slice(0, 3).join(', '))
    return evidence.length > 0
      ? {criterion_id: criterionId(i), criterion_text: text, status: 'partial', evidence: 'Git-analysis detected: ' + evidence.join('; '), evidence_type: 'git_analysis'}
      : {criterion_id: criterionId(i), criterion_text: text, status: 'incomplete', evidence: 'No git-analysis evidence for this criterion', evidence_type: 'git_analysis'}
  })
}
