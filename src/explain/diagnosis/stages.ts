/**
 * Where in a turn a failure started, in the order a turn runs (docs/root-causes.md, "Choosing the
 * primary cause"): the task's set-up, then the model call, the Player agent, its report, the hand-over
 * to the Coach, the Coach itself, the criteria, the Coach's own tests, the quality gates, the loop's
 * control and the limits outside the loop. The primary cause is the earliest stage that failed.
 */
export const STAGES = [
  'setup',
  'model-call',
  'player-agent',
  'player-report',
  'pipeline',
  'coach',
  'criteria',
  'coach-tests',
  'gates',
  'loop-control',
  'outer-limits',
] as const

export type Stage = (typeof STAGES)[number]

/**
 * What a finding or a signal rule may be in a diagnosis: `cause` — it made turns fail and may be the
 * primary cause; `contributing` — it made the failure worse or longer, never the primary; `context` —
 * recorded and classified, not part of the diagnosis (routine warnings, a knowledge-graph hiccup).
 */
export const ROLES = ['cause', 'contributing', 'context'] as const

export type Role = (typeof ROLES)[number]

export function stageIndex(stage: Stage): number {
  return STAGES.indexOf(stage)
}

export function isStage(value: string): value is Stage {
  return (STAGES as readonly string[]).includes(value)
}
