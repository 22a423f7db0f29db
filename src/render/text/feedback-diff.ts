import {diffLines, diffWordsWithSpace} from 'diff'
import type {Palette} from './plain-palette.js'

/**
 * What changed between two feedback texts (recorded vs replayed, or profile vs profile), as
 * `-`/`+`/` ` lines; with colour, the words that changed inside a replaced line are highlighted.
 * Returns [] when the texts are equal.
 */
export function renderTextDiff(before: string, after: string, p: Palette, indent = ''): string[] {
  if (before === after) return []
  const parts = diffLines(ensureNewline(before), ensureNewline(after))
  const out: string[] = []
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    const next = parts[i + 1]
    const lines = splitLines(part.value)
    if (part.removed && next?.added && p.enabled) {
      const [removed, added] = highlightWords(part.value, next.value, p)
      out.push(...removed.map((l) => `${indent}${p.red('-')} ${l}`), ...added.map((l) => `${indent}${p.green('+')} ${l}`))
      i++
    } else if (part.removed) out.push(...lines.map((l) => `${indent}${p.red(`- ${l}`)}`))
    else if (part.added) out.push(...lines.map((l) => `${indent}${p.green(`+ ${l}`)}`))
    else out.push(...lines.map((l) => `${indent}${p.dim(`  ${l}`)}`))
  }
  return out
}

/** Both sides of a replaced block, with the words only one side has in colour. */
function highlightWords(before: string, after: string, p: Palette): [string[], string[]] {
  let left = ''
  let right = ''
  for (const w of diffWordsWithSpace(before, after)) {
    if (w.added) right += p.bold(p.green(w.value))
    else if (w.removed) left += p.bold(p.red(w.value))
    else {
      left += w.value
      right += w.value
    }
  }
  return [splitLines(left), splitLines(right)]
}

function ensureNewline(s: string): string {
  return s.endsWith('\n') ? s : `${s}\n`
}

function splitLines(s: string): string[] {
  const lines = s.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines
}
