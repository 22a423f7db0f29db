/**
 * Where a task's failure started (docs/root-causes.md): every finding belongs to one category, and a
 * task run that did not end approved names one as its primary cause. Ordered as the table is.
 */
export const ROOT_CAUSES = [
  'model-api',
  'agent-budget',
  'agent-report',
  'pipeline-data-loss',
  'criteria-parsing',
  'criteria-matching',
  'cross-turn-memory',
  'test-environment',
  'test-selection',
  'quality-gate',
  'code-defect',
  'loop-control',
  'orchestrator-defect',
  'configuration',
  'workspace',
  'concurrency',
  'external-service',
  'timeout',
  'interrupted',
  'task-spec',
  'unknown',
] as const

export type RootCause = (typeof ROOT_CAUSES)[number]

export function isRootCause(value: string): value is RootCause {
  return (ROOT_CAUSES as readonly string[]).includes(value)
}
