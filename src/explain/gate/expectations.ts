import {decide, type Classification} from './classify.js'
import {REGRESSION_RULES, type GateExpectationResult, type GateReason, type GateSide} from './types.js'

/**
 * One entry of a corpus's expectations.yaml, already read (docs/ci.md, "expectations.yaml"):
 * outcome pins per subject (`fixed: unrecoverable_stall@5`, `legacy: [cancelled, undetermined]`),
 * the changes that are wanted for this task, and a note.
 */
export interface ExpectationEntry {
  readonly file: string
  readonly key: string
  /** Subject (profile name, `recorded`, `as-run`) or role (`baseline`, `candidate`) → pins, any of. */
  readonly pins: Readonly<Record<string, readonly string[]>>
  /** Policy rules wanted for this task, or `any`. */
  readonly wanted: readonly string[] | 'any'
  readonly note: string | null
}

const PIN = /^([a-z_][a-z_-]*)(?:@(\d+))?$/

/** A pin is `OUTCOME` or `OUTCOME@TURN`: a GuardKit outcome word, `undetermined` or `not-modelled`. */
export function parsePin(text: string): {outcome: string; turn: number | null} | null {
  const m = PIN.exec(text.trim())
  if (!m) return null
  const outcome = m[1] === 'not_modelled' ? 'not-modelled' : m[1]!
  return {outcome, turn: m[2] === undefined ? null : Number(m[2])}
}

/** Whether a side's outcome is what the pin says (the turn: where the loop ended, or stopped on a stall). */
export function pinMatches(pin: string, side: GateSide): boolean {
  const p = parsePin(pin)
  if (!p) return false
  if (p.turn !== null && side.endTurn !== p.turn) return false
  if (p.outcome === 'undetermined') return side.kind === 'undetermined'
  if (p.outcome === 'not-modelled') return side.kind === 'not-modelled'
  return outcomeWord(side) === p.outcome
}

/** `cancelled (recorded)` → `cancelled`; the word GuardKit (or the model) gave. */
function outcomeWord(side: GateSide): string | null {
  if (side.kind === 'undetermined' || side.kind === 'not-modelled') return null
  return side.outcome.replace(/ \(recorded\)$/, '')
}

/**
 * Expectations override the policy: a candidate that meets its pin is not a regression (its
 * regressions are waived as expected), one that misses it is (`expectation-unmet`), and rules the
 * entry lists as wanted are waived. A baseline that misses its pin changes nothing but shows.
 */
export function applyExpectation(cls: Classification, baseline: GateSide, candidate: GateSide, entry: ExpectationEntry): {classification: Classification; expectation: GateExpectationResult} {
  const pins: GateExpectationResult['pins'][number][] = []
  for (const [key, expected] of Object.entries(entry.pins)) {
    for (const [role, side] of [['baseline', baseline], ['candidate', candidate]] as const) {
      if (!keyNames(key, role, side.subject)) continue
      pins.push({role, subject: side.subject, expected: expected.length === 1 ? expected[0]! : `[${expected.join(', ')}]`, found: found(side), met: expected.some((p) => pinMatches(p, side))})
    }
  }
  pins.sort((x, y) => (x.role === y.role ? 0 : x.role === 'baseline' ? -1 : 1))
  const expectation: GateExpectationResult = {file: entry.file, key: entry.key, pins, wanted: entry.wanted === 'any' ? ['any'] : [...entry.wanted], note: entry.note}
  if (cls.classification === 'skipped') return {classification: cls, expectation}
  const candidatePins = pins.filter((p) => p.role === 'candidate')
  const met = candidatePins.length > 0 && candidatePins.every((p) => p.met)
  const unmet = candidatePins.filter((p) => !p.met)
  const wanted = (rule: string): boolean => entry.wanted === 'any' || entry.wanted.includes(rule)
  const reasons: GateReason[] = cls.reasons.map((r) => {
    if (r.effect !== 'regression' || r.rule === 'expectation-unmet') return r
    if (met) return {...r, waived: true, note: `expected: ${entry.file} pins ${candidate.subject} to ${candidatePins.map((p) => p.expected).join(' and ')}`}
    if (wanted(r.rule)) return {...r, waived: true, note: `wanted: ${entry.file} lists ${entry.wanted === 'any' ? 'any change' : r.rule} for this task`}
    return r
  })
  const waived = reasons.some((r, i) => r.waived && !cls.reasons[i]!.waived)
  if (met && waived) reasons.push({rule: 'expectation-met', effect: 'change', turn: candidate.endTurn, message: `${candidate.subject} ends ${found(candidate)}, as ${entry.file} pins it`, approximate: candidate.fidelity !== 'exact'})
  for (const p of unmet) {
    reasons.push({rule: 'expectation-unmet', effect: 'regression', turn: candidate.endTurn, message: `${entry.file} pins ${p.subject} to ${p.expected}; it ends ${p.found}`, approximate: candidate.fidelity !== 'exact'})
  }
  return {classification: decide(reasons), expectation}
}

function keyNames(key: string, role: 'baseline' | 'candidate', subject: string): boolean {
  return key === role || key === subject || (key === 'as-run' && subject.startsWith('as-run:'))
}

function found(side: GateSide): string {
  if (side.kind === 'undetermined' || side.kind === 'not-modelled' || side.endTurn === null) return side.outcome
  return `${side.outcome}@${side.endTurn}`
}

/** Rules an expectations file may list as wanted. */
export const WANTABLE_RULES: readonly string[] = REGRESSION_RULES.filter((r) => r !== 'expectation-unmet')
