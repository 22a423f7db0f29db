import type {Evidence} from '../../../model/evidence.js'
import {offer, outranks} from './candidate.js'
import {keep} from './keep.js'
import type {TaskDraft} from './task-draft.js'
import {feedbackFromSummary, filesOfSummary, type TurnDraft} from './turn-draft.js'

/** Helpers of task-events.ts for the Player's SDK turns, progress lines and the 0/N dump. */

export function currentTurn(task: TaskDraft): number | null {
  let max = 0
  for (const k of task.turns.keys()) if (k > max) max = k
  return max === 0 ? null : max
}

export function applySdkTurns(t: TurnDraft, used: number | null, max: number | null, ev: Evidence): void {
  if (max !== null) t.sdkMaxTurns = max
  const u = used ?? t.sdkTurns?.value.used ?? null
  if (u === null) return
  const ceiling = t.sdkMaxTurns
  // the session's count equal to the limit it was given; a count above it is not one: the SDK's count can pass the
  // limit in sessions that finished their work (an agent's report written after `SDK completed: turns=61` of 50)
  t.sdkTurns = {value: {used: u, max: ceiling, ceilingHit: ceiling === null ? null : u === ceiling}, evidence: [ev]}
}

/** `Completed turn N: success|feedback|error - …`: the Player's or the Coach's result, by its text. */
export function applyProgress(t: TurnDraft, status: 'success' | 'feedback' | 'error', summary: string, ev: Evidence, ts: string | undefined): void {
  const coach = summary.startsWith('Feedback: ') || summary.startsWith('Coach ')
  t.hasResult = true
  if (coach) {
    const decision = status === 'success' ? 'approve' : status
    t.decision = offer(t.decision, decision, 1, ev)
    const fb = outranks(t.feedback, 2) ? feedbackFromSummary(summary, ev) : null
    if (fb !== null) t.feedback = offer(t.feedback, fb, 2, ev)
    if (ts !== undefined) t.endedAt = ts
    return
  }
  t.playerStatus = offer(t.playerStatus, status, 2, ev)
  const files = t.filesCreated === null ? filesOfSummary(summary) : null
  if (files !== null && t.filesCreated === null) {
    t.filesCreated = {value: files.created, evidence: [ev]}
    t.filesModified = {value: files.modified, evidence: [ev]}
    if (files.tests !== null) t.testsReported = {value: files.tests, evidence: [ev]}
  }
  if (status === 'error' && t.playerError === null) t.playerError = {value: keep(summary.replace(/^Player failed: /, '')), evidence: [ev]}
}

export function applyDumpLine(task: TaskDraft, field: string, value: string, ev: Evidence): void {
  const t = task.openDump
  if (t === null || t.dump === null) return
  const d = t.dump.value
  d.lines.push(`  ${field === 'ac' ? 'AC text' : field}: ${value}`)
  if (field === 'ac') d.criteria.push(value)
  else if (field === 'requirements_met') d.requirementsMet = value
  else if (field === 'completion_promises') d.completionPromises = value
  else if (field === 'matching_strategy') d.matchingStrategy = value
  else if (field === '_synthetic') d.synthetic = value === 'True' ? true : value === 'False' ? false : null
  if (t.dump.evidence.length < 2) t.dump.evidence.push(ev)
  if (field === '_synthetic' && task.criteria === null && d.criteria.length > 0) {
    task.criteria = {texts: [...d.criteria], source: 'diagnostic-dump', complete: false, evidence: [t.dump.evidence[0]!]}
  }
}
