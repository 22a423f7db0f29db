import type {LogicChange} from './types.js'

/**
 * Orchestrator: turn loop, feedback, stall detection, outcomes, criteria display (docs/guardkit-logic.md §8), oldest
 * first. Unchanged between the pins (docs/guardkit-logic.md §1): `_extract_feedback`, `_count_criteria_passed`,
 * `_build_error_message`, the pollution rule, perspective reset turns [3, 5], threshold 3.
 */
export const ORCHESTRATOR_CHANGES = [
  {id: 'extendedStall', diffs: ['D28'], commit: '723e5f4e', cause: 'non-seed TASK-REV-E719 Fix 3', seed: null, area: 'orchestrator', spec: '§8.4',
    functions: ['AutoBuildOrchestrator._is_feedback_stalled'],
    summary: 'identical signatures with equal non-zero counts need 5 turns (extended threshold); only zero counts stall at 3'},
  {id: 'stallLogText', diffs: ['D30'], commit: '723e5f4e', cause: 'non-seed', seed: null, area: 'orchestrator', spec: '§8.7',
    functions: ['AutoBuildOrchestrator._loop_phase'],
    summary: 'stall ERROR says "identical feedback with no criteria progress (N criteria passing)"'},
  {id: 'stallNormalize', diffs: ['D27'], commit: '5c2b5d82', cause: 'seed 002 R2', seed: '002', area: 'orchestrator', spec: '§8.4',
    functions: ['AutoBuildOrchestrator._is_feedback_stalled', 'AutoBuildOrchestrator._normalize_feedback_for_stall'],
    summary: 'signatures are md5 of the feedback after normalising test ids, line numbers, percentages, durations, counts and worktree paths'},
  // D33 is the orchestrator half of ca7c161a; the Coach half (D23) is coach.ts's conditionalApproval.
  {id: 'conditionalApprovalSummary', diffs: ['D33'], commit: 'ca7c161a', cause: 'non-seed (evolves seed 002 R4)', seed: null, area: 'orchestrator', spec: '§8.7',
    functions: ['AutoBuildOrchestrator._build_summary_details'],
    summary: 'an approval with approved_without_independent_tests is summarised as "APPROVED (infra-dependent, independent tests skipped)"'},
  {id: 'peakCriteriaCount', diffs: ['D29'], commit: 'edb5fd18', cause: 'seed 004 Fix 2', seed: '004', area: 'orchestrator', spec: '§8.5',
    functions: ['AutoBuildOrchestrator._loop_phase'],
    summary: 'the count fed to the stall detector is the running peak of verified criteria, not the current turn'},
  {id: 'partialStatusEnum', diffs: ['D31'], commit: 'c3feae49', cause: 'non-seed TASK-FIX-d999', seed: null, area: 'orchestrator', spec: '§8.6',
    functions: ['CompletionPromise.from_dict', 'AutoBuildOrchestrator._display_criteria_progress'],
    summary: "'partial' is a valid CriterionStatus and unknown statuses map to incomplete (legacy: ValueError crashes orchestration)"},
  // docs/guardkit-logic.md §1 names no commit for D32; the hint is about ANTHROPIC_BASE_URL and the SDK model name,
  // which TASK-FIX-d999 (c3feae49) handled, and no other docs/guardkit-logic.md §0.2 commit touches the stall summary.
  {id: 'sdkApiErrorHint', diffs: ['D32'], commit: 'c3feae49', cause: 'non-seed', seed: null, area: 'orchestrator', spec: '§8.7',
    functions: ['AutoBuildOrchestrator._build_summary_details'],
    summary: 'unrecoverable-stall summary hints at an SDK API error when the last feedbacks all mention one'},
] as const satisfies readonly LogicChange[]
