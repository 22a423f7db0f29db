import {isPyDict, PyException, pyDictGet, pyTypeName} from '../python/builtins.js'
import {pyTruthy} from '../python/strings.js'

/**
 * Python operations on the JSON values the Coach reads, with the exceptions Python would raise.
 *
 * `validate()` does not type-check its inputs (docs/guardkit-logic.md §6.1): a `null` where a dict is expected makes
 * the real code raise, and the orchestrator then falls back to the LLM Coach. Those raises are
 * thrown as `PyException` and caught at the public boundary (`validate()`, the adapters), which
 * turn them into values; threading a result through every `dict.get` would hide the logic.
 */
export {isPyDict as isDict, PyException, pyIterate, pyTypeName} from '../python/builtins.js'
export {pyStr} from '../python/repr.js'

export type PyDict = {readonly [key: string]: unknown}

/** `d.get(key, default)`: the default only when the key is absent; a non-dict raises AttributeError. */
export function pyGet(obj: unknown, key: string, fallback: unknown = null): unknown {
  return pyDictGet(obj, key, fallback)
}

/** `needle in container` for a str key (dict keys, list items, substring). */
export function pyContains(container: unknown, needle: string): boolean {
  if (isPyDict(container)) return Object.prototype.hasOwnProperty.call(container, needle)
  if (Array.isArray(container)) return container.some((item) => item === needle)
  if (typeof container === 'string') return container.includes(needle)
  throw new PyException('TypeError', `argument of type '${pyTypeName(container)}' is not iterable`)
}

/** Python `==` between a JSON value and a number (True == 1, 0 == 0.0, "0" != 0). */
export function pyEqualsNumber(value: unknown, n: number): boolean {
  const x = pyNumber(value)
  return x !== null && x === n
}

/** A JSON value as a Python number for arithmetic and ordering (bool is an int), or null. */
export function pyNumber(value: unknown): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0
  return typeof value === 'number' ? value : null
}

/** `value >= n`; types Python cannot order raise TypeError. */
export function pyGreaterOrEqual(value: unknown, n: number): boolean {
  const a = pyNumber(value)
  if (a === null) throw new PyException('TypeError', `'>=' not supported between instances of '${pyTypeName(value)}' and '${pyTypeName(n)}'`)
  return a >= n
}

/** `a + b` of two JSON values that Python would add as numbers. */
export function pyAddNumbers(a: unknown, b: unknown): number {
  const x = pyNumber(a)
  const y = pyNumber(b)
  if (x === null || y === null) throw new PyException('TypeError', `unsupported operand type(s) for +: '${pyTypeName(a)}' and '${pyTypeName(b)}'`)
  return x + y
}

/** `value or fallback` */
export function pyOr(value: unknown, fallback: unknown): unknown {
  return pyTruthy(value) ? value : fallback
}

/** A dict lookup with this key: a list or dict raises TypeError (a list `task_type`, docs/guardkit-logic.md §6.1). */
export function pyRequireHashable(value: unknown): void {
  if (Array.isArray(value) || isPyDict(value)) throw new PyException('TypeError', `unhashable type: '${pyTypeName(value)}'`)
}

/** `container[key]` after `key in container` held: a list or str holding the key cannot be indexed by it. */
export function pySubscript(container: unknown, key: string): unknown {
  if (isPyDict(container)) return container[key]
  const what = Array.isArray(container) ? 'list indices must be integers or slices, not str' : `string indices must be integers, not '${pyTypeName(key)}'`
  throw new PyException('TypeError', what)
}

/** `sep.join(items)`: every item must be a str. */
export function pyJoin(sep: string, items: readonly unknown[]): string {
  items.forEach((item, i) => {
    if (typeof item !== 'string') throw new PyException('TypeError', `sequence item ${i}: expected str instance, ${pyTypeName(item)} found`)
  })
  return items.join(sep)
}
