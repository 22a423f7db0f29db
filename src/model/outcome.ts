/**
 * How a task's loop ended, in GuardKit's own vocabulary (docs/record-formats.md §5.6). Open-ended: newer
 * GuardKit versions add values (timeout_budget_exhausted, player_invocation_stall, …).
 */
export type Outcome =
  | 'approved'
  | 'unrecoverable_stall'
  | 'max_turns_exceeded'
  | 'cancelled'
  | 'timeout'
  | 'error'
  | 'timeout_budget_exhausted'
  | 'player_invocation_stall'
  | 'pre_loop_blocked'
  | 'configuration_error'
  | (string & {})

export type CoachDecision = 'approve' | 'feedback' | 'error'

export type ImplementationMode = 'task-work' | 'direct'
