import type {Evidence} from './evidence.js'
import type {RootCause} from './root-cause.js'

/**
 * Why a task run did not end approved (docs/root-causes.md): the primary cause — the one that, had it
 * not happened, would most likely have let the task succeed — and the causes that made it worse or
 * longer. An outcome (stall, max turns, timeout, cancellation) is never the primary cause.
 */
export interface Diagnosis {
  readonly primary: {
    readonly category: RootCause
    /** The finding that states the cause (`f3`). */
    readonly findingId: string
    /** One sentence. */
    readonly summary: string
    /** The deciding records, each with its text when it is a log line. */
    readonly evidence: readonly Evidence[]
  }
  readonly contributing: readonly {readonly category: RootCause; readonly findingIds: readonly string[]}[]
  readonly confidence: 'certain' | 'inferred'
}
