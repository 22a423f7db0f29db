import type {TaskAnalysis, Waste} from '../../explain/analysis.js'
import type {Fidelity, TaskReplay} from '../../replay/types.js'
import {labelled, plural, truncate, visibleWidth, wrap} from './layout.js'
import {MARK_SYMBOL, taskMark} from './marks.js'
import type {TextOptions} from './text-options.js'

/**
 * The ten-second answer for one task (docs/cli.md "The text report"): what happened with the waste, why, and
 * what each profile would have done, approximate values labelled. Tasks that went well take one
 * line, plus any profile that would have ended them differently.
 */
export function renderVerdict(t: TaskAnalysis, label: string, rowWidth: number, o: TextOptions): string[] {
  const p = o.palette
  const v = t.verdict
  const kind = taskMark(t)
  const mark = kind === 'ok' ? p.green(MARK_SYMBOL.ok) : kind === 'attention' ? p.yellow(MARK_SYMBOL.attention) : p.red(MARK_SYMBOL.failed)
  const lead = `${p.bold(label)}  ${mark} `
  const [head = '', ...more] = wrap(`recorded: ${v.happened}`, o.width - visibleWidth(lead)).map((l, i) => (i === 0 ? `${lead}${l}` : `${' '.repeat(visibleWidth(lead))}${l}`))
  const wasted = v.waste !== null && v.waste.turnsWasted > 0
  const waste = wasted ? formatWaste(v.waste!) : ''
  const fits = wasted && more.length === 0 && visibleWidth(head) + 3 + visibleWidth(waste) <= o.width
  const out = [fits ? `${head}   ${p.red(waste)}` : head, ...more]
  const indent = '  '
  const quiet = v.ok && t.findings.length === 0
  if (!quiet && v.why !== '') out.push(...labelled(indent, 'why', rowWidth, v.why, o.width))
  for (const u of v.underProfiles) {
    const replay = t.replays[u.profile]
    if (quiet && replay !== undefined && agreesWithRecord(t, replay)) continue
    const note = replay === undefined ? '' : fidelityNote(replay, u.text, o.verbose)
    const text = o.verbose ? u.text : shortenCaveat(u.text)
    out.push(...labelled(indent, u.profile, rowWidth, `${text}${note}`, o.width, p.cyan))
  }
  if (wasted && (!fits || o.verbose)) out.push(...labelled(indent, 'waste', rowWidth, fits ? v.waste!.basis : `${waste}: ${v.waste!.basis}`, o.width, p.red))
  return out
}

export function formatWaste(w: Waste): string {
  const minutes = w.minutesWasted === null ? '' : ` (≈ ${Math.round(w.minutesWasted)} min)`
  return `${plural(w.turnsWasted, 'turn')} wasted${minutes}`
}

/** A replay that ends the way the record did needs no line of its own on a task that went well. */
function agreesWithRecord(t: TaskAnalysis, replay: TaskReplay): boolean {
  const recorded = t.task.outcome?.value ?? null
  const o = replay.outcome
  if (o.kind === 'replayed' || o.kind === 'recorded-boundary') return o.outcome === recorded && o.turn === (t.task.turnCount?.value ?? o.turn)
  return false
}

/** The least exact fidelity among the turns a replay decided. */
export function replayFidelity(replay: TaskReplay): Fidelity {
  if (replay.turns.some((u) => u.fidelity === 'insufficient')) return 'insufficient'
  if (replay.turns.some((u) => u.fidelity === 'approximate')) return 'approximate'
  return 'exact'
}

/**
 * Keeps the first clause of a trailing `(approximate: …; …)` caveat, cut at a word boundary after
 * CAVEAT columns, so a verdict stays a few lines; --verbose prints it whole.
 */
export function shortenCaveat(text: string): string {
  const at = text.search(/ \((approximate|insufficient)\b/)
  if (at < 0) return text
  let depth = 0
  let end = text.length
  let more = false
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]
    if (c === '(') depth++
    else if (c === ')') depth--
    else if (c === ';' && depth === 1) {
      end = i
      more = true
      break
    }
    if (depth === 0) {
      end = i
      break
    }
  }
  const caveat = text.slice(at + 2, end)
  const cut = balanced(truncate(caveat, CAVEAT))
  if (cut === caveat && !more) return text
  const shortened = cut === caveat ? `${caveat}; …` : cut
  return `${text.slice(0, at)} (${shortened})${text.slice(text.lastIndexOf(')') + 1)}`
}

/** A cut that left a parenthesis open ends before it instead: `under X (not recorded…` → `under X…`. */
function balanced(cut: string): string {
  let open = -1
  let depth = 0
  for (let i = 0; i < cut.length; i++) {
    if (cut[i] === '(') {
      if (depth === 0) open = i
      depth++
    } else if (cut[i] === ')') depth = Math.max(0, depth - 1)
  }
  return depth === 0 || open <= 0 ? cut : `${cut.slice(0, open).trimEnd()}…`
}

/** Columns of a caveat a verdict line keeps without --verbose. */
const CAVEAT = 120

/** Says so when a profile's answer rests on approximate or missing inputs, unless the text already does. */
function fidelityNote(replay: TaskReplay, text: string, verbose: boolean): string {
  const fidelity = replayFidelity(replay)
  // An undetermined replay's line already says what it rests on: its branches and their conditions.
  if (fidelity === 'exact' || replay.outcome.kind === 'branches' || /\((approximate|insufficient)\b/.test(text)) return ''
  if (!verbose) return ` (${fidelity}; --verbose says why)`
  const why = fidelity === 'approximate'
    ? replay.turns.flatMap((u) => u.assumptions)[0]
    : replay.missingInputs[0] ?? replay.turns.flatMap((u) => u.missingInputs)[0]
  return `   (${fidelity}${why === undefined ? '' : `: ${why}`})`
}
