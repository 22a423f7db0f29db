import {pyRepr} from '../python/repr.js'

/** A Python exception GuardKit raised, kept as a value (docs/contributing.md). */
export interface PyExceptionValue {
  readonly type: string
  readonly message: string
}

/** `"Type: message"`, the form the oracle and the logs print. */
export function formatPyException(e: PyExceptionValue): string {
  return `${e.type}: ${e.message}`
}

/** Python's `Enum(value)` failure: `ValueError: 'x' is not a valid Name`. */
export function enumValueError(value: unknown, enumName: string): PyExceptionValue {
  return {type: 'ValueError', message: `${pyRepr(value)} is not a valid ${enumName}`}
}
