import type {LogicChange} from './types.js'

/** Mode assignment and where criteria come from (docs/guardkit-logic.md §9). */
export const MODE_CHANGES = [
  {id: 'topLevelCriteriaOnly', diffs: [], commit: '723e5f4e', cause: 'non-seed ("Fixes for criteria parser"; FEAT-AC1A counted 10 criteria for 6)', seed: null, area: 'mode', spec: '§0.2, §9.3',
    functions: ['TaskLoader._extract_acceptance_criteria'],
    summary: 'only top-level bullets under ## Acceptance Criteria are criteria (legacy counted nested sub-bullets too)'},
  {id: 'acCountGuard', diffs: ['D17'], commit: '71a5fb57', cause: 'seed 001 R4', seed: '001', area: 'mode', spec: '§9.1, §9.2',
    functions: ['generate_feature_yaml.parse_task_string', 'generate_feature_yaml (--tasks-json loop)', 'AgentInvoker._auto_detect_direct_mode'],
    summary: 'tasks with 2 or more acceptance criteria default to task-work even at complexity <= 3'},
] as const satisfies readonly LogicChange[]
