import {createHash} from 'node:crypto'

/** `hashlib.md5(text.encode()).hexdigest()` (UTF-8; lone surrogates cannot occur in valid input). */
export function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex')
}

/** `md5(...).hexdigest()[:8]`, the stall detector's feedback signature format. */
export function md5Hex8(text: string): string {
  return md5Hex(text).slice(0, 8)
}
