import type {FlagId} from '../changes.js'

/**
 * The side channel beside GuardKit's own outputs: what each pipeline step did to the data on its
 * way from the Player to the Coach. The explainer reads it to say where data was lost ("promises
 * present in the agent's report, overwritten by the invoker", "files_created empty because the
 * parser read file_path only") and which flag decided it. GuardKit itself records none of this.
 */
export type PipelineEventKind =
  /** Data the step saw but did not keep (e.g. a Write path under a key the parser did not read). */
  | 'dropped'
  /** Entries removed by a validity filter. */
  | 'filtered'
  /** Entries kept although a later version rejects them (`**`, bare words). */
  | 'spurious'
  /** A value replaced wholesale by another source (parser lists over git lists). */
  | 'replaced'
  /** A file GuardKit rewrote, losing what the earlier writer put there (the agent's report). */
  | 'overwritten'
  /** Data taken over from an earlier source (agent promises, twr promises). */
  | 'recovered'
  /** Data GuardKit made up from other evidence (file-existence or git-analysis promises). */
  | 'generated'
  /** Data copied back into task_work_results.json. */
  | 'written-back'
  /** Data the report had that task_work_results.json, which the Coach reads first, did not get. */
  | 'not-written-back'
  /** Entries added from another source (git). */
  | 'added'
  /** A step that did not run, and why. */
  | 'skipped'
  /** A fact the model could not establish from its inputs (e.g. set iteration order). */
  | 'approximate'

export interface PipelineEvent {
  /** GuardKit function, with the stage inside it after a colon (`_create_player_report_from_task_work:git`). */
  readonly step: string
  readonly kind: PipelineEventKind
  /** The JSON field concerned (`files_created`, `completion_promises`, `_synthetic`, …). */
  readonly field: string
  /** The entries concerned, when there are any. */
  readonly values?: readonly unknown[]
  /** The flag whose state decided this outcome (on or off), when one did. */
  readonly flag?: FlagId
  /** One sentence for a person. */
  readonly message: string
}

/** Collects events in the order the steps ran. */
export class PipelineTrace {
  readonly events: PipelineEvent[] = []

  push(event: PipelineEvent): void {
    this.events.push(event)
  }
}
