import {PyException, pyInt, pyTypeName} from './builtins.js'
import {pyFormatFixed} from './format.js'
import {PyFloat, pyRepr, pyStr} from './repr.js'
import {pyLen, pySlice} from './strings.js'

/**
 * `fmt % args` (printf-style formatting), as GuardKit's logger calls it (`logger.info(fmt, *args)` is
 * `fmt % args`): `%s` is `str()` (`None`, `True`, `1.0`, `{'a': None}`), `%r` is `repr()`, `%d`/`%i`/`%u`
 * truncate floats (`'%d' % 2.9` is `2`, `'%d' % True` is `1`), `%f`/`%F` round the exact binary value
 * half to even, `%x`/`%X`/`%o` are ints in base 16/8, `%c` one character, `%%` a percent sign; flags `-`,
 * `0`, `+`, space and `#`, a width and a precision (`%.100s` keeps 100 code points), `*` taken from the
 * arguments. Counts and widths are in code points. A wrong argument raises as CPython does.
 * Not modelled (GuardKit's formats use none of them; they raise "unsupported format character" here,
 * which CPython does not): `%e`, `%g`, `%a` and `%(key)s` mapping keys.
 */
export function pyPercentFormat(fmt: string, args: readonly unknown[]): string {
  let out = ''
  let next = 0
  const take = (): unknown => {
    if (next >= args.length) throw new PyException('TypeError', 'not enough arguments for format string')
    return args[next++]
  }
  const SPEC = /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?[hlL]?([\s\S])?/y
  let i = 0
  while (i < fmt.length) {
    const pct = fmt.indexOf('%', i)
    if (pct < 0) {
      out += fmt.slice(i)
      break
    }
    out += fmt.slice(i, pct)
    SPEC.lastIndex = pct
    const m = SPEC.exec(fmt)!
    i = SPEC.lastIndex
    const [, flags = '', widthText, precisionText, type] = m
    if (type === undefined) throw new PyException('ValueError', 'incomplete format')
    if (type === '%' && m[0] === '%%') {
      out += '%'
      continue
    }
    let width = widthText === '*' ? starArg(take()) : widthText === undefined ? 0 : Number(widthText)
    const left = flags.includes('-') || width < 0
    width = Math.abs(width)
    const precision = precisionText === undefined ? null : precisionText === '*' ? Math.max(0, starArg(take())) : Number(precisionText || '0')
    const body = convert(type, take(), flags, precision, pyLen(fmt.slice(0, i - type.length)))
    out += pad(body, width, left, flags.includes('0') && !left && 'diouxXfF'.includes(type))
  }
  if (next < args.length) throw new PyException('TypeError', 'not all arguments converted during string formatting')
  return out
}

function starArg(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value
  throw new PyException('TypeError', '* wants int')
}

function convert(type: string, value: unknown, flags: string, precision: number | null, typeIndex: number): string {
  switch (type) {
    case 's':
      return cut(pyStr(value), precision)
    case 'r':
      return cut(pyRepr(value), precision)
    case 'd':
    case 'i':
    case 'u':
      return signed(integer(value, type), flags, (n) => n.toString(10))
    case 'x':
    case 'X':
    case 'o': {
      // Python 3 refuses floats here, even integral ones ('%x' % 2.0 is a TypeError).
      if (value instanceof PyFloat || (typeof value === 'number' && !Number.isInteger(value))) throw new PyException('TypeError', `%${type} format: an integer is required, not float`)
      const n = integer(value, type)
      const base = type === 'o' ? 8 : 16
      const prefix = flags.includes('#') ? (type === 'o' ? '0o' : type === 'x' ? '0x' : '0X') : ''
      const text = signed(n, flags, (v) => prefix + v.toString(base))
      return type === 'X' ? text.toUpperCase() : text
    }
    case 'f':
    case 'F': {
      const x = real(value)
      if (!Number.isFinite(x)) {
        const word = Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf'
        const text = (x > 0 || Number.isNaN(x)) && flags.includes('+') ? `+${word}` : word
        return type === 'F' ? text.toUpperCase() : text
      }
      const text = pyFormatFixed(x, precision ?? 6)
      const shown = flags.includes('#') && (precision ?? 6) === 0 ? `${text}.` : text
      return shown.startsWith('-') ? shown : flags.includes('+') ? `+${shown}` : flags.includes(' ') ? ` ${shown}` : shown
    }
    case 'c': {
      if (typeof value === 'string' && pyLen(value) === 1) return value
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0x10ffff) return String.fromCodePoint(value)
      throw new PyException('TypeError', '%c requires int or char')
    }
    default:
      throw new PyException('ValueError', `unsupported format character '${type}' (0x${type.codePointAt(0)!.toString(16)}) at index ${typeIndex}`)
  }
}

/** The int a `%d` takes: ints as they are, floats truncated, bools 0/1; anything else is a TypeError. */
function integer(value: unknown, type: string): bigint {
  if (value instanceof PyFloat) return BigInt(pyInt(value.value))
  if (typeof value === 'number' || typeof value === 'boolean') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new PyException(Number.isNaN(value) ? 'ValueError' : 'OverflowError', Number.isNaN(value) ? 'cannot convert float NaN to integer' : 'cannot convert float infinity to integer')
    return BigInt(pyInt(value))
  }
  if (typeof value === 'bigint') return value
  const what = type === 'x' || type === 'X' || type === 'o' ? `%${type} format: an integer is required` : `%${type} format: a real number is required`
  throw new PyException('TypeError', `${what}, not ${pyTypeName(value)}`)
}

function real(value: unknown): number {
  if (value instanceof PyFloat) return value.value
  if (typeof value === 'number') return value
  if (typeof value === 'boolean') return value ? 1 : 0
  throw new PyException('TypeError', `must be real number, not ${pyTypeName(value)}`)
}

function signed(n: bigint, flags: string, digits: (abs: bigint) => string): string {
  if (n < 0n) return `-${digits(-n)}`
  return (flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '') + digits(n)
}

function cut(text: string, precision: number | null): string {
  return precision === null ? text : pySlice(text, 0, precision)
}

/** Width in code points; `0` pads numbers after their sign (`%05d` of -3 is `-0003`). */
function pad(text: string, width: number, left: boolean, zero: boolean): string {
  const missing = width - pyLen(text)
  if (missing <= 0) return text
  if (left) return text + ' '.repeat(missing)
  if (!zero) return ' '.repeat(missing) + text
  const sign = /^[-+ ]/.test(text) ? text[0]! : ''
  const rest = text.slice(sign.length)
  const prefix = /^0[xXo]/.test(rest) ? rest.slice(0, 2) : ''
  return sign + prefix + '0'.repeat(missing) + rest.slice(prefix.length)
}

