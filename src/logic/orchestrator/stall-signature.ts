import type {LogicFlags} from '../changes.js'
import {md5Hex8} from '../python/md5.js'
import {pyRegex, pySub} from '../python/regex.js'
import {pyLower, pyStrip} from '../python/strings.js'

/**
 * `_STALL_NORMALIZE_PATTERNS` (docs/guardkit-logic.md §8.4, fixed since 5c2b5d82), applied in order with `re.sub`
 * before lower-casing, so `Line 42` (capital L) survives. Pattern 6 is greedy to the last `/` of
 * its token; `\S` includes `\`, so Windows node ids are normalised by pattern 1.
 */
const STALL_NORMALIZE_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [pyRegex(String.raw`\S+\.py::\S+`, 'g'), 'FILE::TEST'],
  [pyRegex(String.raw`line \d+`, 'g'), 'line N'],
  [pyRegex(String.raw`\d+(\.\d+)?%`, 'g'), 'N%'],
  [pyRegex(String.raw`in \d+\.\d+s`, 'g'), 'in Ns'],
  [pyRegex(String.raw`\d+ (passed|failed|error|errors|skipped|warnings?)`, 'g'), String.raw`N \1`],
  [pyRegex(String.raw`/\S+/worktrees/\S+/`, 'g'), '/WORKTREE/'],
]

/** `AutoBuildOrchestrator._normalize_feedback_for_stall(feedback)` (fixed only). */
export function normalizeFeedbackForStall(feedback: string): string {
  let text = feedback
  for (const [re, repl] of STALL_NORMALIZE_PATTERNS) text = pySub(re, repl, text)
  return text
}

/** `md5(text.strip().lower().encode()).hexdigest()[:8]` */
export function signatureOf(text: string): string {
  return md5Hex8(pyLower(pyStrip(text)))
}

/** Both signatures of one feedback text, and which one the profile's detector uses. */
export interface FeedbackSignatures {
  /** md5 of the feedback as sent (legacy's signature). */
  readonly raw: string
  /** The feedback after `_normalize_feedback_for_stall`. */
  readonly normalizedText: string
  /** md5 of the normalised feedback (fixed's signature). */
  readonly normalized: string
  /** The signature `_is_feedback_stalled` appends under the given flags. */
  readonly used: string
}

export function feedbackSignatures(feedback: string, flags: LogicFlags): FeedbackSignatures {
  const normalizedText = normalizeFeedbackForStall(feedback)
  const raw = signatureOf(feedback)
  const normalized = signatureOf(normalizedText)
  // stallNormalize (D27): fixed hashes the normalised text, legacy the text as sent.
  return {raw, normalizedText, normalized, used: flags.stallNormalize ? normalized : raw}
}

/** The signature `_is_feedback_stalled` appends to `_feedback_history` for this feedback. */
export function feedbackSignature(feedback: string, flags: LogicFlags): string {
  return feedbackSignatures(feedback, flags).used
}
