import {linkCauses} from './causes.js'
import type {FamilyInput, FindingDraft} from './draft.js'
import {detectBoundaryFindings} from './families/boundaries.js'
import {detectCriteriaFindings} from './families/criteria.js'
import {detectInfrastructureFindings} from './families/infrastructure.js'
import {detectPipelineFindings} from './families/pipeline.js'
import {detectReplayFindings} from './families/replay.js'
import {detectStallFindings} from './families/stall.js'
import {detectTestFindings} from './families/tests.js'

/**
 * Every finding for one task run, linked cause → effect. The record-only families come first: they
 * work on runs of any era, also outside the modelled window; the replay family adds what only a
 * replay can say (a divergence from the record, what `fixed` still gets wrong).
 */
export function detectTaskFindings(input: FamilyInput): FindingDraft[] {
  const drafts = [
    ...detectPipelineFindings(input),
    ...detectCriteriaFindings(input),
    ...detectTestFindings(input),
    ...detectStallFindings(input),
    ...detectBoundaryFindings(input),
    ...detectInfrastructureFindings(input),
    ...detectReplayFindings(input),
  ]
  return linkCauses(drafts)
}
