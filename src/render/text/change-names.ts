import {LOGIC_CHANGES} from '../../logic/changes.js'

/**
 * A difference row between the modelled GuardKit versions (`D9`, `D13-D15`; docs/logic-changes.md)
 * means nothing to a reader on its own: every mention in a report carries the name of the logic
 * change (flag) it belongs to — `recoverAgentPromises (D9)`. Rows no flag claims stay as they are.
 */
export function nameChangeIds(text: string): string {
  return text.replace(/\bD(\d+)(?:[-–]D(\d+))?\b/g, (whole, from: string, to: string | undefined) => {
    const rows = to === undefined ? [Number(from)] : range(Number(from), Number(to))
    const names = [...new Set(rows.flatMap((n) => FLAGS_BY_ROW.get(`D${n}`) ?? []))]
    return names.length === 0 ? whole : `${names.join(', ')} (${whole})`
  })
}

/**
 * A finding's source reference as the findings catalogue writes it (a section number of
 * docs/guardkit-logic.md and its difference rows, D26 say) for a reader: the page and its sections,
 * then the logic changes named —
 * `docs/guardkit-logic.md §7.3; logic changes promiseTaskIdFallback, priorTurnPromises (D26)`.
 */
export function describeSource(spec: string): string {
  const rows = [...spec.matchAll(/\bD\d+(?:[-–]D\d+)?\b/g)].map((m) => m[0])
  const sections = spec.replace(/\s*\((?:\s*D\d+(?:[-–]D\d+)?,?)+\s*\)/g, '').trim()
  const names = [...new Set(rows.flatMap((r) => {
    const [from, to] = r.split(/[-–]/).map((x) => Number(x.slice(1)))
    return (to === undefined ? [from!] : range(from!, to)).flatMap((n) => FLAGS_BY_ROW.get(`D${n}`) ?? [])
  }))]
  const changes = names.length === 0 ? (rows.length === 0 ? '' : `difference ${rows.join(', ')}`) : `logic change${names.length === 1 ? '' : 's'} ${names.join(', ')} (${rows.join(', ')})`
  return [sections === '' ? '' : `docs/guardkit-logic.md ${sections}`, changes].filter((x) => x !== '').join('; ')
}

const FLAGS_BY_ROW = (() => {
  const map = new Map<string, string[]>()
  for (const c of LOGIC_CHANGES) for (const d of c.diffs) map.set(d, [...(map.get(d) ?? []), c.id])
  return map
})()

function range(from: number, to: number): number[] {
  const out: number[] = []
  for (let n = from; n <= Math.min(to, from + 20); n++) out.push(n)
  return out
}
