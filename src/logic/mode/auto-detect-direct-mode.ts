import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {PyException, isPyDict, pyInt, pyTypeName} from '../python/builtins.js'
import {pyStr} from '../python/repr.js'
import {pyRegex} from '../python/regex.js'
import {pyLower} from '../python/strings.js'
import type {ImplementationMode} from '../../model/outcome.js'

/** `AgentInvoker.HIGH_RISK_KEYWORDS` (docs/guardkit-logic.md §9.2; identical in both versions), matched as substrings. */
export const HIGH_RISK_KEYWORDS: readonly string[] = [
  'security', 'auth', 'authentication', 'authorization', 'breaking', 'breaking change', 'schema', 'migration', 'database',
  'api', 'endpoint', 'financial', 'payment', 'billing', 'encryption', 'crypto', 'cryptographic', 'oauth', 'saml', 'jwt',
  'session', 'privilege', 'permission', 'access control', 'injection', 'xss', 'csrf',
]

// `re.findall(r'^\s*-\s*\[[ x]\]', content, re.MULTILINE)`: Python's multiline `^` follows only `\n`,
// and `\s*` may cross line breaks.
const CHECKBOX = pyRegex('(?:^|(?<=\\n))\\s*-\\s*\\[[ x]\\]', 'g')

/** Why auto-detection chose what it chose, for the explainer. */
export type AutoDetectReason =
  | {readonly kind: 'no-complexity'}
  | {readonly kind: 'bad-complexity'; readonly value: unknown}
  | {readonly kind: 'complex'; readonly complexity: number}
  | {readonly kind: 'high-risk'; readonly complexity: number; readonly keyword: string}
  | {readonly kind: 'many-criteria'; readonly complexity: number; readonly acCount: number; readonly counted: 'frontmatter' | 'checkboxes'}
  | {readonly kind: 'simple'; readonly complexity: number; readonly acCount: number | null}

export interface AutoDetected {
  readonly mode: ImplementationMode
  readonly reason: AutoDetectReason
}

/**
 * `AgentInvoker._auto_detect_direct_mode(task_id, task_data)` (docs/guardkit-logic.md §9.2, D17). `task_data` is
 * TaskLoader's dict: `frontmatter` (a dict) and `content` (the body). Complexity goes through
 * Python `int()` (`"3"` → 3, `3.9` → 3, `True` → 1; failure → task-work); high-risk keywords are
 * substrings of `f"{title} {content}".lower()` (`rapid` ⊃ `api`, a null title reads `none`).
 */
export function autoDetectDirectMode(taskId: string, taskData: Record<string, unknown>, flags: LogicFlags, log: LogSink): AutoDetected {
  const frontmatter = 'frontmatter' in taskData ? taskData['frontmatter'] : {}
  if (!isPyDict(frontmatter)) throw new PyException('AttributeError', `'${pyTypeName(frontmatter)}' object has no attribute 'get'`)
  const raw = frontmatter['complexity']
  if (raw === undefined || raw === null) return {mode: 'task-work', reason: {kind: 'no-complexity'}}
  let complexity: number
  try {
    complexity = pyInt(raw)
  } catch (error) {
    if (error instanceof PyException) return {mode: 'task-work', reason: {kind: 'bad-complexity', value: raw}}
    throw error
  }
  if (complexity > 3) return {mode: 'task-work', reason: {kind: 'complex', complexity}}
  const title = 'title' in frontmatter ? frontmatter['title'] : ''
  const content = 'content' in taskData ? taskData['content'] : ''
  const text = pyLower(`${pyStr(title)} ${pyStr(content)}`)
  const keyword = HIGH_RISK_KEYWORDS.find((k) => text.includes(k))
  if (keyword !== undefined) return {mode: 'task-work', reason: {kind: 'high-risk', complexity, keyword}}

  let acCount: number | null = null
  // acCountGuard (D17): fixed also sends tasks with 2 or more acceptance criteria to task-work.
  if (flags.acCountGuard) {
    const listed = frontmatter['acceptance_criteria']
    const fromFrontmatter = Array.isArray(listed) && listed.length >= 2
    if (!fromFrontmatter && typeof content !== 'string') {
      throw new PyException('TypeError', `expected string or bytes-like object, got '${pyTypeName(content)}'`)
    }
    acCount = fromFrontmatter ? listed.length : [...(content as string).matchAll(CHECKBOX)].length
    if (acCount >= 2) {
      return {mode: 'task-work', reason: {kind: 'many-criteria', complexity, acCount, counted: fromFrontmatter ? 'frontmatter' : 'checkboxes'}}
    }
  }
  const detail = acCount === null ? '' : `, ac_count=${acCount}`
  log.emit('INFO', LOGGERS.invoker, `[${taskId}] Auto-detected direct mode (complexity=${complexity}, no high-risk keywords${detail})`)
  return {mode: 'direct', reason: {kind: 'simple', complexity, acCount}}
}
