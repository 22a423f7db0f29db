/**
 * A stall signature's colour, derived from the signature alone so that the same signature has
 * the same colour in every lane, every task and every report: the hue from its first six hex
 * digits, the lightness from the next two (two close hues then still differ in shade). Text
 * stays dark on every background (contrast ≥ 7:1 at these lightnesses). Signatures that are not
 * hex (read from a damaged log) are hashed first.
 */
export interface SignatureColour {
  readonly hue: number
  readonly background: string
  readonly border: string
}

export function signatureColour(signature: string): SignatureColour {
  const hex = /^[0-9a-f]{8,}$/i.test(signature) ? signature : fnv1a(signature)
  const hue = Math.round((parseInt(hex.slice(0, 6), 16) / 0x1000000) * 360) % 360
  const light = 74 + Math.round((parseInt(hex.slice(6, 8), 16) / 255) * 12)
  return {hue, background: `hsl(${hue} 72% ${light}%)`, border: `hsl(${hue} 60% 38%)`}
}

/** 32-bit FNV-1a of the UTF-16 code units, as 8 hex digits. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(16).padStart(8, '0')
}
