// The terminal's safety apart from layout: error messages (src/cli/failure.ts) use it without loading
// the width measurement, which costs start-up.

// eslint-disable-next-line no-control-regex
const OURS = /\x1b\[[0-9;]*m/y

/**
 * Makes a finished report safe for a terminal: text from the records (feedback, task files, log
 * lines) may carry control characters. Every control character except newline and tab becomes
 * `�`; with `keepColour`, the SGR colour codes the palette wrote are kept, any other escape is not.
 */
export function sanitizeForTerminal(text: string, keepColour: boolean): string {
  let out = ''
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 0x1b && keepColour) {
      OURS.lastIndex = i
      const m = OURS.exec(text)
      if (m !== null) {
        out += m[0]
        i += m[0].length
        continue
      }
    }
    if (c === 0x0d) {
      i++
      continue
    }
    const control = (c < 0x20 && c !== 0x0a && c !== 0x09) || (c >= 0x7f && c <= 0x9f)
    out += control ? '�' : text[i]
    i++
  }
  return out
}
