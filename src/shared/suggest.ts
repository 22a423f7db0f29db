/**
 * "Did you mean …?" for a mistyped command, flag, profile or logic-change name. The measure is the
 * optimal-string-alignment distance (insertions, deletions, substitutions and swaps of neighbours each
 * count one), case folded: `gaet` → `gate`, `--verbse` → `--verbose`, `legcy` → `legacy`. bin/argv.js
 * carries the same measure in plain JS (it runs before anything is loaded); a unit test keeps the two
 * in step.
 */

/** Edits between two words (adjacent swaps count one). */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase()
  const t = b.toLowerCase()
  const rows: number[][] = []
  for (let i = 0; i <= s.length; i++) rows.push([i, ...new Array<number>(t.length).fill(0)])
  for (let j = 0; j <= t.length; j++) rows[0]![j] = j
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = d
    }
  }
  return rows[s.length]![t.length]!
}

/** How many edits still count as a typo of a word this long: one for short words, a third of longer ones. */
export function typoBudget(word: string): number {
  return word.length <= 4 ? 1 : Math.max(2, Math.floor(word.length / 3))
}

/**
 * The candidates a mistyped `word` is closest to, nearest first (ties in the candidates' order):
 * those within its typo budget, or those it is a prefix of (`--verb` → `--verbose`). Empty when
 * nothing is close.
 */
export function closest(word: string, candidates: readonly string[], max = 3): string[] {
  if (word === '') return []
  const budget = typoBudget(word)
  const scored = candidates
    .map((c, i) => ({c, i, d: c.toLowerCase().startsWith(word.toLowerCase()) ? 0.5 : editDistance(word, c)}))
    .filter((x) => x.d <= budget && x.c !== word)
  scored.sort((x, y) => x.d - y.d || x.i - y.i)
  return [...new Set(scored.map((x) => x.c))].slice(0, max)
}

/** ` Did you mean `legacy`?` (or `` `a` or `b` ``), or '' when nothing is close. */
export function didYouMean(word: string, candidates: readonly string[], quote = (s: string) => `\`${s}\``): string {
  const near = closest(word, candidates)
  if (near.length === 0) return ''
  const listed = near.length === 1 ? quote(near[0]!) : `${near.slice(0, -1).map(quote).join(', ')} or ${quote(near[near.length - 1]!)}`
  return ` Did you mean ${listed}?`
}
