/**
 * Python number formatting (docs/guardkit-logic.md §3.10). f-strings of floats use repr (`80.0`, not `80`);
 * `{x:.0f}` / `{x:.0%}` round the exact binary value half-to-even, where JS's toFixed rounds
 * ties up.
 */

/** `repr(x)` / `str(x)` / `f"{x}"` of a Python float. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan'
  if (x === Infinity) return 'inf'
  if (x === -Infinity) return '-inf'
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0'
  const [mant, expStr] = x.toExponential().split('e') as [string, string]
  const exp = Number(expStr)
  const negative = mant.startsWith('-')
  const digits = mant.replace('-', '').replace('.', '')
  const decpt = exp + 1
  let body: string
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) body = '0.' + '0'.repeat(-decpt) + digits
    else if (decpt >= digits.length) body = digits + '0'.repeat(decpt - digits.length) + '.0'
    else body = digits.slice(0, decpt) + '.' + digits.slice(decpt)
  } else {
    const m = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits
    const e = exp < 0 ? '-' + String(-exp).padStart(2, '0') : '+' + String(exp).padStart(2, '0')
    body = m + 'e' + e
  }
  return (negative ? '-' : '') + body
}

/** The exact decimal expansion of a finite double, as [sign, integer digits, fraction digits]. */
function exactDecimal(x: number): {negative: boolean; int: string; frac: string} {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  const hi = view.getUint32(0)
  const lo = view.getUint32(4)
  const negative = hi >>> 31 === 1
  const biased = (hi >>> 20) & 0x7ff
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo)
  let exp: number
  if (biased === 0) exp = -1074
  else {
    mantissa |= 1n << 52n
    exp = biased - 1075
  }
  if (exp >= 0) return {negative, int: (mantissa << BigInt(exp)).toString(), frac: ''}
  const scaled = (mantissa * 5n ** BigInt(-exp)).toString().padStart(-exp + 1, '0')
  return {negative, int: scaled.slice(0, scaled.length + exp), frac: scaled.slice(scaled.length + exp)}
}

/** `format(x, f".{n}f")`: correct rounding of the exact binary value, ties to even. */
export function pyFormatFixed(x: number, n: number): string {
  if (!Number.isFinite(x)) return pyFloatRepr(x)
  const {negative, int, frac} = exactDecimal(x)
  const kept = frac.slice(0, n).padEnd(n, '0')
  const rest = frac.slice(n)
  let digits = BigInt(int + kept)
  const first = rest[0] ?? '0'
  const tail = rest.slice(1)
  const roundUp =
    first > '5' || (first === '5' && (/[1-9]/.test(tail) || (digits % 2n === 1n)))
  if (roundUp) digits += 1n
  let s = digits.toString().padStart(n + 1, '0')
  if (n > 0) s = s.slice(0, s.length - n) + '.' + s.slice(s.length - n)
  // Python keeps the sign of negative values that round to zero: format(-0.4, '.0f') == '-0'
  return (negative ? '-' : '') + s
}

/** `format(x, ".0%")` and friends: multiply by 100 as a float, then format fixed. */
export function pyFormatPercent(x: number, n = 0): string {
  return pyFormatFixed(x * 100, n) + '%'
}

/** `str(int)` / `f"{i}"` for an int, or float repr when the value is not integral. */
export function pyStrNumber(x: number, isFloat = false): string {
  return isFloat || !Number.isInteger(x) ? pyFloatRepr(x) : String(x)
}

/**
 * `a // b` on Python numbers: floor division, rounding towards -inf (JS `Math.trunc` rounds towards
 * zero), with CPython's float algorithm so that e.g. `1 // 0.1` is 9.0, not 10.
 */
export function pyFloorDiv(a: number, b: number): number {
  if (Number.isInteger(a) && Number.isInteger(b) && Number.isSafeInteger(a) && Number.isSafeInteger(b)) return Math.floor(a / b)
  const mod = a % b
  let div = (a - mod) / b
  if (mod !== 0 && b < 0 !== mod < 0) div -= 1
  if (div === 0) return Math.sign(a / b) < 0 || Object.is(a / b, -0) ? -0 : 0
  let floordiv = Math.floor(div)
  if (div - floordiv > 0.5) floordiv += 1
  return floordiv
}
