import type {Finding, FindingCode} from '../model/finding.js'

/** One clause per code for the verdict's "why" line (docs/cli.md "The text report": readable in ten seconds). */
export const WHY: Readonly<Record<FindingCode, string>> = {
  FILE_TRACKING_KEY_MISMATCH: 'the Player\'s file writes were not tracked',
  AGENT_PROMISES_OVERWRITTEN: 'the agent\'s completion promises were overwritten before the Coach read them',
  RESULTS_NOT_ENRICHED: 'task_work_results.json never got the enriched file lists',
  SPURIOUS_FILE_ENTRIES: 'the file lists held entries that are not files',
  ABSOLUTE_RELATIVE_DUPLICATES: 'test files were passed twice under two spellings',
  SYNTHETIC_REPORT_WITHOUT_PROMISES: 'the Coach got a synthetic report with no promises',
  SYNTHETIC_FLAG_MISSING: 'the synthetic report did not say it was synthetic',
  DIRECT_MODE_WITH_CRITERIA: 'a task with several criteria ran in direct mode',
  PROMISES_LOST_ACROSS_TURNS: 'the promises of an earlier turn were not reused on the fix turns',
  TASK_ID_MISSING_IN_RESULTS: 'the results had no task id, so the player report was not found',
  ZERO_OF_N_TEXT_MATCH_EMPTY: 'the Coach matched the criteria against nothing (0/N)',
  TEXT_MATCH_NEAR_MISS: 'requirements nearly matched the criteria but missed the matching rule',
  PROMISES_NOT_PASSED_TO_COACH: "the Player report carried the agent's promises, but the Coach used none",
  CRITERIA_UNVERIFIABLE: 'the criteria left unmet ask for a human judgement no test can give',
  TEXT_MATCH_MISSED_ALL: "the Coach's text matching verified none of the criteria against the Player's reported requirements",
  CRITERION_ID_MISMATCH: 'promise ids did not line up with the criteria',
  CRITERIA_COUNT_INFLATED: 'sub-bullets were counted as criteria',
  GATES_SHORT_CIRCUIT: 'a failing quality gate hid the tests and criteria',
  INFRA_TEST_FAILURE: 'the Coach\'s own test run failed on an import or environment error, not on a test\'s assertion',
  ENV_PARITY_GAP: 'the Coach ran the tests without the Player\'s environment',
  FEEDBACK_NOT_ACTIONABLE: 'the Player was never told the error',
  STALL_FIRED: 'the stall detector stopped the loop',
  STALL_DEFEATED_BY_VARIABLE_OUTPUT: 'the stall detector could not see that the feedback repeated',
  STALL_WINDOW_BROKEN: 'a different feedback restarted the stall window',
  ENDED_BY_TIMEOUT_NOT_STALL: 'a timeout ended the loop instead of the stall detector',
  MAX_TURNS_WITHOUT_STALL: 'the loop used every turn repeating itself',
  STALL_ON_CORRECT_WORK: 'the work was done, but the Coach lost sight of the evidence',
  ORCHESTRATION_CRASH: 'the orchestrator crashed',
  GRAPHITI_CONNECTION_DEGRADED: 'knowledge-graph connections were failing',
  ZERO_TEST_ANOMALY: "the Coach's zero-test check rejected the results it read",
  CONTEXT_POLLUTION_STALL: 'three failing checkpoints and none to roll back to stopped the loop',
  PLAYER_TIMEOUT: "the Player's invocation hit its SDK timeout or turn ceiling and state recovery stood in for it",
  FUZZY_FALSE_POSITIVE: 'a criterion was verified by an empty text match',
  FIXED_STILL_FAILS: 'even fixed GuardKit rejects criteria it never looked at',
  DUPLICATE_TEST_PATHS_UNNORMALISED: 'test files were passed twice under two spellings',
  REPLAY_DIVERGES_FROM_RECORD: 'the replay does not reproduce the recorded verdict',
  LOG_SIGNAL: 'the log records an error',
  CAUSE_NOT_RECORDED: 'the records do not say why',
  APPROVAL_OVERRIDDEN: 'a stopping rule overrode the Coach\'s approval',
  PLAYER_ERROR_NOT_IN_LOG: 'the Player failed and its error is not in the log',
}

/** What GuardKit never changed, for the verdict's "not fixed" line. */
export const NOT_FIXED: Partial<Readonly<Record<FindingCode, string>>> = {
  GATES_SHORT_CIRCUIT: 'gate short-circuit ordering (a failing gate hides tests and criteria)',
  STALL_WINDOW_BROKEN: 'one different feedback still restarts the stall window',
  INFRA_TEST_FAILURE: 'tests still fail where the services or modules they need are missing',
  FUZZY_FALSE_POSITIVE: 'no guard against empty requirement strings in text matching',
  TEXT_MATCH_NEAR_MISS: 'text matching thresholds',
  TEXT_MATCH_MISSED_ALL: 'text matching of reported requirements',
  CRITERION_ID_MISMATCH: 'promise ids must equal the criteria\'s AC-00N ids',
  DUPLICATE_TEST_PATHS_UNNORMALISED: 'relative test paths are not normalised ("./tests/x.py")',
  GRAPHITI_CONNECTION_DEGRADED: 'knowledge-graph errors (outside the modelled logic)',
  PLAYER_TIMEOUT: 'Player timeouts (outside the modelled logic)',
  FIXED_STILL_FAILS: 'criteria that the fixed Coach still cannot verify',
  DIRECT_MODE_WITH_CRITERIA: 'an explicit implementation_mode: direct still wins over the criteria-count guard',
  FILE_TRACKING_KEY_MISMATCH: 'file paths under keys other than file_path, path, file, filePath',
}

/**
 * The "not fixed" clause of a finding, worded from its records where the rule's numbers vary: the pollution rule is
 * said with the count of failing checkpoints it fired on in this run (GuardKit versions differ in it: docs/guardkit-logic.md
 * §8.1 models three, later logs show it firing on two), never a count the run does not show.
 */
export function notFixedPhrase(f: Pick<Finding, 'code' | 'detail'>): string | null {
  if (f.code === 'CONTEXT_POLLUTION_STALL') {
    const n = f.detail?.['checkpointsCounted']
    return typeof n === 'number' && n > 0
      ? `the pollution rule is unchanged (here it ended the loop on ${n} consecutive failing checkpoint${n === 1 ? '' : 's'} with none passing)`
      : 'the pollution rule (consecutive failing checkpoints with none passing end the loop) is unchanged'
  }
  return NOT_FIXED[f.code] ?? null
}
