import {compareCodePoints} from '../shared/code-point-order.js'
import {FINDING_CODES, SEVERITY_ORDER, type Finding} from '../model/finding.js'
import type {FindingDraft} from './draft.js'

/**
 * Report order and ids: per task run (in the run's order), most severe first, then by first turn,
 * then by the code's place in the finding list (docs/findings.md), then by key. Ids `f1`, `f2`, …
 * follow that order across the report, so the same record always gives the same ids, and a task
 * run's ids are known as soon as it is analysed: a streamed report numbers its findings as it goes
 * (docs/architecture.md "Streaming"). `firstId` is the number the first finding gets.
 */
export function numberFindings(perTask: readonly (readonly FindingDraft[])[], firstId = 1): Finding[][] {
  return numberFindingsByKey(perTask, firstId).map((t) => t.findings)
}

/** numberFindings, with each task's draft key → finding id (the diagnosis names its findings by key). */
export function numberFindingsByKey(perTask: readonly (readonly FindingDraft[])[], firstId = 1): {findings: Finding[]; idOf: ReadonlyMap<string, string>}[] {
  let next = firstId
  return perTask.map((drafts) => {
    const sorted = [...drafts].sort(compareDrafts)
    const ids = new Map(sorted.map((d) => [d, `f${next++}`]))
    const byKey = new Map(drafts.map((d) => [d.key, ids.get(d)!]))
    const findings = sorted.map((d): Finding => {
      const {key: _key, causeKeys, ...rest} = d
      const causes = causeKeys.map((k) => byKey.get(k)).filter((id): id is string => id !== undefined)
      return {id: ids.get(d)!, ...rest, causes}
    })
    return {findings, idOf: byKey}
  })
}

function compareDrafts(a: FindingDraft, b: FindingDraft): number {
  return (
    SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
    firstTurn(a) - firstTurn(b) ||
    FINDING_CODES.indexOf(a.code) - FINDING_CODES.indexOf(b.code) ||
    compareCodePoints(a.key, b.key)
  )
}

function firstTurn(d: FindingDraft): number {
  return d.turns.length ? d.turns[0]! : 0
}
