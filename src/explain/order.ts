import {compareCodePoints} from '../shared/compare.js'
import {FINDING_CODES, SEVERITY_ORDER, type Finding} from '../model/finding.js'
import type {FindingDraft} from './draft.js'

/**
 * Report order and ids: most severe first, then by task (in the run's order), then by first turn,
 * then by the code's place in the contract's list, then by key. Ids `f1`, `f2`, … follow that order
 * across the whole report, so the same record always gives the same ids.
 */
export function numberFindings(perTask: readonly (readonly FindingDraft[])[]): Finding[][] {
  return numberFindingsByKey(perTask).map((t) => t.findings)
}

/** numberFindings, with each task's draft key → finding id (the diagnosis names its findings by key). */
export function numberFindingsByKey(perTask: readonly (readonly FindingDraft[])[]): {findings: Finding[]; idOf: ReadonlyMap<string, string>}[] {
  const all = perTask.flatMap((drafts, taskIndex) => drafts.map((d) => ({d, taskIndex})))
  all.sort((a, b) => compareDrafts(a.d, a.taskIndex, b.d, b.taskIndex))
  const ids = new Map<FindingDraft, string>()
  all.forEach((x, i) => ids.set(x.d, `f${i + 1}`))
  return perTask.map((drafts) => {
    const byKey = new Map(drafts.map((d) => [d.key, ids.get(d)!]))
    const findings = [...drafts]
      .sort((a, b) => compareDrafts(a, 0, b, 0))
      .map((d): Finding => {
        const {key: _key, causeKeys, ...rest} = d
        const causes = causeKeys.map((k) => byKey.get(k)).filter((id): id is string => id !== undefined)
        return {id: ids.get(d)!, ...rest, causes}
      })
    return {findings, idOf: byKey}
  })
}

function compareDrafts(a: FindingDraft, ta: number, b: FindingDraft, tb: number): number {
  return (
    SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
    ta - tb ||
    firstTurn(a) - firstTurn(b) ||
    FINDING_CODES.indexOf(a.code) - FINDING_CODES.indexOf(b.code) ||
    compareCodePoints(a.key, b.key)
  )
}

function firstTurn(d: FindingDraft): number {
  return d.turns.length ? d.turns[0]! : 0
}
