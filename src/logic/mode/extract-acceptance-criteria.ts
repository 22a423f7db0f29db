import type {LogicFlags} from '../changes.js'
import {pyLstrip, pyLower, pyStrip} from '../python/strings.js'

export const NO_CRITERIA = 'No acceptance criteria specified'

const HEADERS = ['## acceptance criteria', '## acceptance criterion']

/** `line.lstrip("- [x] ").lstrip("- [ ] ").lstrip("- ").lstrip("* ")`: each call strips a character *set*. */
function lstripChain(line: string): string {
  return pyLstrip(pyLstrip(pyLstrip(pyLstrip(line, '- [x] '), '- [ ] '), '- '), '* ')
}

/**
 * `TaskLoader._extract_acceptance_criteria(content, metadata)` (docs/guardkit-logic.md §9.3). A frontmatter list wins
 * as is (even `[]`, non-str items), a string becomes `[string]`; otherwise the body section after the
 * first `## Acceptance Criteria` line (stripped, lower-cased; a repeated header is skipped) up to the
 * next unindented `##` line (`###` included). Legacy takes every `- [ ]`/`- [x]`/`- `/`* ` line once
 * stripped, nested ones too (FEAT-AC1A: 10 criteria instead of 6); fixed only top-level ones. The
 * `lstrip` chain strips character sets: `- [x] x-ray support` → `ray support`. Nothing found →
 * `["No acceptance criteria specified"]`.
 */
export function extractAcceptanceCriteria(content: string, metadata: Record<string, unknown>, flags: LogicFlags): unknown[] {
  const listed = metadata['acceptance_criteria']
  if (Array.isArray(listed)) return listed
  if (typeof listed === 'string') return [listed]
  const criteria: string[] = []
  let inSection = false
  for (const line of content.split('\n')) {
    const stripped = pyStrip(line)
    if (HEADERS.includes(pyLower(stripped))) {
      inSection = true
      continue
    }
    if (!inSection) continue
    if (line.startsWith('##')) break
    let criterion: string | null = null
    // topLevelCriteriaOnly (723e5f4e): only unindented bullets count; legacy strips first, so nested ones count too.
    if (flags.topLevelCriteriaOnly) {
      if (['- [ ] ', '- [x] ', '- ', '* '].some((p) => line.startsWith(p))) criterion = pyStrip(lstripChain(line))
    } else if (['- [ ]', '- [x]', '- ', '* '].some((p) => stripped.startsWith(p))) {
      criterion = lstripChain(stripped)
    }
    if (criterion) criteria.push(criterion)
  }
  return criteria.length > 0 ? criteria : [NO_CRITERIA]
}
