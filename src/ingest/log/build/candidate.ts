import type {Evidence, Fact} from '../../../model/evidence.js'

/**
 * A value several records may state, each with a trust level: the strongest source wins, and
 * every record that states the winning value stays as evidence (e.g. a turn's Coach decision from
 * the summary table, `Coach approved TASK-X turn N`, `Coach provided feedback on turn N`).
 */
export interface Candidate<T> {
  value: T
  priority: number
  evidence: Evidence[]
}

const MAX_EVIDENCE = 8

export function offer<T>(current: Candidate<T> | null, value: T, priority: number, evidence: Evidence): Candidate<T> {
  if (current === null || priority > current.priority) return {value, priority, evidence: [evidence]}
  if (current.value === value && current.evidence.length < MAX_EVIDENCE) current.evidence.push(evidence)
  return current
}

/**
 * Whether `offer` at this priority would take a new value. A value made fresh for the offer (an
 * object) never equals the current one, so when this is false it need not be made at all.
 */
export function outranks<T>(current: Candidate<T> | null, priority: number): boolean {
  return current === null || priority > current.priority
}

export function toFact<T>(c: Candidate<T> | null): Fact<T> | null {
  return c === null ? null : {value: c.value, evidence: c.evidence}
}

/** First value wins; later records of the same value add evidence. */
export function firstFact<T>(current: Fact<T> | null, value: T, evidence: Evidence): Fact<T> {
  if (current === null) return {value, evidence: [evidence]}
  if (current.value === value && current.evidence.length < MAX_EVIDENCE) return {value, evidence: [...current.evidence, evidence]}
  return current
}

/** Last value wins (a later record supersedes an earlier one of the same kind). */
export function lastFact<T>(value: T, evidence: Evidence): Fact<T> {
  return {value, evidence: [evidence]}
}
