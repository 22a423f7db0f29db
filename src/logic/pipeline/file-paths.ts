import {compareCodePoints} from '../../shared/code-point-order.js'
import {pyLen, pyStrip} from '../python/strings.js'

/**
 * Path checks and list idioms the Player pipeline applies to file lists (docs/guardkit-logic.md §4.1, §4.3, §4.4).
 */

/** `TaskWorkStreamParser._is_valid_file_path` (TASK-FIX-PV01): rejects `**`, `house`, `ab`, `abc`. */
export function isValidFilePath(path: string): boolean {
  if (!path || pyLen(path) < 3) return false
  if (path === '*' || path === '**' || path === '***' || path.startsWith('*')) return false
  return path.includes('/') || path.includes('\\') || path.includes('.')
}

/** The seed's `_is_valid_path` (TASK-FIX-PIPELINE-DATA-LOSS Fix 4, 723e5f4e..b2fee34d). */
export function isValidPathSeed(path: string): boolean {
  if (!path || !pyStrip(path)) return false
  if (path === '*' || path === '**' || path === '***') return false
  return !path.startsWith('*')
}

/** `TaskWorkStreamParser._is_test_file`: the name after the last `/`, then after the last `\`. */
export function isTestFile(path: string): boolean {
  const afterSlash = path.slice(path.lastIndexOf('/') + 1)
  const name = afterSlash.slice(afterSlash.lastIndexOf('\\') + 1)
  return (name.startsWith('test_') && name.endsWith('.py')) || name.endsWith('_test.py')
}

/** `sorted(set(items))` on strings: exact-string dedupe, code-point order. */
export function sortedSet(items: Iterable<string>): string[] {
  return [...new Set(items)].sort(compareCodePoints)
}

/** `list(dict.fromkeys(items))`: dedupe keeping the first occurrence. */
export function dedupeKeepOrder<T>(items: Iterable<T>): T[] {
  return [...new Set(items)]
}

/** The string members of a JSON list (GuardKit's lists hold strings; anything else is ignored). */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}
