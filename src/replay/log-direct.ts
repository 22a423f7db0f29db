import {extractFeedback} from '../logic/orchestrator/index.js'
import {runDirectModeTurn} from '../logic/pipeline/index.js'
import type {ProfileContext} from './profile-context.js'
import type {TurnInputs} from './turn-inputs.js'
import {emptyTurnDetail} from './types.js'
import {loopReport, type TurnDecision} from './turn-decision.js'

/** The oracle harness's root, standing in for a worktree path the records do not show. */
const STAND_IN_ROOT = '/worktree/root'

/**
 * A direct-mode turn known from the log on which the SDK wrote no player report and the code that ran built a
 * synthetic one, under a profile that has no synthetic builder (before c4d01fcf, D13): `_invoke_player_direct`
 * fails the turn, `task_work_results.json` gets the error, and the Coach stops at step 1 (docs/guardkit-logic.md §6.1,
 * `missing_results`) with `- Player report not found: {path}` as feedback — another text every turn (the path
 * names the turn), and a checkpoint whose tests gate fails (no quality gates, docs/guardkit-logic.md §8.1). The recorded verdict (a
 * synthetic report's 0/N) is not this profile's, and its text is not this profile's feedback. Null when the
 * turn is not such a turn.
 */
export function directTurnWithoutSyntheticBuilder(ctx: ProfileContext, t: TurnInputs): TurnDecision | null {
  const {flags, asRun, inputs} = ctx
  if (inputs.mode !== 'direct' || t.record.player.reportSource?.value !== 'direct-synthetic') return null
  if (flags.directSyntheticReport || asRun === null || !asRun.directSyntheticReport) return null
  const root = inputs.worktreeRoot
  const flow = runDirectModeTurn({
    taskId: inputs.taskId, turn: t.turn, worktreeRoot: root ?? STAND_IN_ROOT, sdk: {kind: 'no-report'}, gitChanges: null,
    taskType: inputs.taskType.value, criteria: {taskLoader: [], frontmatter: []}, timestamp: '',
  }, flags)
  const feedback = extractFeedback({issues: [{severity: 'must_fix', category: 'missing_results', description: flow.taskWorkResults.error}]})
  const total = ctx.criteria?.texts.length ?? t.criteriaTotal ?? 0
  const detail = emptyTurnDetail()
  return {
    decision: 'feedback',
    criteriaMet: 0,
    criteriaTotal: total,
    feedback,
    feedbackBasis: root === null ? 'category' : 'rebuilt',
    feedbackFrom: `the missing-results feedback of a failed direct-mode turn (${ctx.name} builds no synthetic report: directSyntheticReport is off)`,
    feedbackIsRecorded: false,
    coachReport: loopReport('feedback', 0, total, false, feedback),
    playerReport: null,
    playerSuccess: false,
    recordedCheckpoint: false,
    fidelity: root === null ? 'approximate' : 'exact',
    decisionCertain: true,
    assumptions: [`the SDK wrote no report on turn ${t.turn} (the log shows the synthetic report that replaced it); without the synthetic builder the turn fails and the Coach reads the failure's error`],
    missingInputs: root === null ? ['the worktree path (the feedback names the missing player report by its absolute path)'] : [],
    logs: [],
    player: {...detail.player, source: 'pipeline-direct', mode: 'direct', events: flow.events.map((e) => ({...e}))},
    coach: {...detail.coach, source: 'validated', step: 'missing-results', notValidatedBecause: null, taskType: inputs.taskType.value},
    unknowns: [],
    // Without the path the text is not known, but it differs every turn (it names the turn's report): unlike any other.
    ...(root === null ? {signatureUnknown: 'the feedback names the missing report by its absolute path, and the worktree path is not recorded'} : {}),
  }
}
