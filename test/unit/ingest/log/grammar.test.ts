import {describe, expect, it} from 'vitest'
import {parseRecord} from '../../../../src/ingest/log/grammar/index.js'
import {parsePyStrList, parseParams} from '../../../../src/ingest/log/grammar/text.js'
import {splitPhysicalLine} from '../../../../src/ingest/log/physical-line.js'

/** Verbatim records from docs/record-formats.md §5.4 (each with its staged location) and the typed event they must give. */
const CASES: {name: string; line: string; event: Record<string, unknown>}[] = [
  {name: 'cli_start_feature FEAT-GI.log:6', line: 'INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-GI (max_turns=15, stop_on_failure=True, resume=False, fresh=False, sdk_timeout=None, enable_pre_loop=None)',
    event: {kind: 'cli-start', mode: 'feature', featureId: 'FEAT-GI', params: {max_turns: '15', stop_on_failure: 'True', resume: 'False', fresh: 'False', sdk_timeout: 'None', enable_pre_loop: 'None'}}},
  {name: 'cli_start_task TASK-FIX-A7D3-langraph-run-3.log:30', line: 'INFO:guardkit.cli.autobuild:Starting orchestration for TASK-FIX-A7D3 (resume=False)',
    event: {kind: 'cli-start', mode: 'task', taskId: 'TASK-FIX-A7D3'}},
  {name: 'fo_task_timeout db_max_turns_1.log:934', line: 'WARNING:guardkit.orchestrator.feature_orchestrator:Task TASK-DB-006 timed out after 2400s (40 min)',
    event: {kind: 'feature-task-timeout', taskId: 'TASK-DB-006', seconds: 2400}},
  {name: 'fo_complete FEAT-GI.log:1721', line: 'INFO:guardkit.orchestrator.feature_orchestrator:Feature orchestration complete: FEAT-GI, status=completed, completed=7/7',
    event: {kind: 'feature-complete', featureId: 'FEAT-GI', status: 'completed', completed: '7/7'}},
  {name: 'ab_exec_turn FEAT-GI.log:50', line: 'INFO:guardkit.orchestrator.autobuild:Executing turn 1/15', event: {kind: 'ab-exec-turn', turn: 1, maxTurns: 15}},
  {name: 'ab_crit_progress, percent not X/Y (§6.2)', line: 'INFO:guardkit.orchestrator.autobuild:Criteria Progress (Turn 3): 6/10 verified (100%)',
    event: {kind: 'ab-criteria-progress', turn: 3, met: 6, total: 10, percent: 100}},
  {name: 'ab_crit_counts FEAT-GI.log:137', line: 'INFO:guardkit.orchestrator.autobuild:Criteria: 0 verified, 0 rejected, 18 pending', event: {kind: 'ab-criteria-counts', verified: 0, rejected: 0, pending: 18}},
  {name: 'ab_coach_feedback FEAT-GI.log:141', line: 'INFO:guardkit.orchestrator.autobuild:Coach provided feedback on turn 1', event: {kind: 'ab-coach-turn', turn: 1, decision: 'feedback'}},
  {name: 'ab_coach_approved FEAT-GI.log:201', line: 'INFO:guardkit.orchestrator.autobuild:Coach approved on turn 2', event: {kind: 'ab-coach-turn', turn: 2, decision: 'approve'}},
  {name: 'ab_stall_warn api_docs_2.log:294', line: 'WARNING:guardkit.orchestrator.autobuild:Feedback stall: identical feedback (sig=e4f8e92b) for 3 turns with 0 criteria passing',
    event: {kind: 'ab-stall-warning', signature: 'e4f8e92b', turns: 3, passing: 0, extended: false}},
  {name: 'ab_stall_warn_ext db_failed_2.log:371', line: 'WARNING:guardkit.orchestrator.autobuild:Feedback stall: identical feedback (sig=f24a4581) for 5 turns with 6 criteria passing (extended threshold for partial progress)',
    event: {kind: 'ab-stall-warning', signature: 'f24a4581', turns: 5, passing: 6, extended: true}},
  {name: 'ab_stall_err_v1 api_docs_2.log:295', line: 'ERROR:guardkit.orchestrator.autobuild:Feedback stall detected for TASK-DOC-002: identical feedback for 3 consecutive turns with 0% criteria progress. Exiting loop early.',
    event: {kind: 'ab-stall-error', taskId: 'TASK-DOC-002', wording: 'stall-error-v1', passing: null}},
  {name: 'ab_stall_err_v2 db_after_infra_aware_changes.log:491', line: 'ERROR:guardkit.orchestrator.autobuild:Feedback stall detected for TASK-DB-003: identical feedback with no criteria progress (0 criteria passing). Exiting loop early.',
    event: {kind: 'ab-stall-error', taskId: 'TASK-DB-003', wording: 'stall-error-v2', passing: 0}},
  {name: 'ab_pollution_stall jarvis-FEAT-002-run-2.log:3211', line: 'ERROR:guardkit.orchestrator.autobuild:Unrecoverable stall detected for TASK-J002-009: context pollution detected but no passing checkpoint exists. Exiting loop early to avoid wasting turns.',
    event: {kind: 'ab-pollution-stall', taskId: 'TASK-J002-009'}},
  {name: 'ab_player_inv_stall_e FOREGE:659', line: 'ERROR:guardkit.orchestrator.autobuild:Player-invocation stall detected for TASK-GCI-001: 3 turn(s), latest 3 consecutively failed at the SDK layer. Exiting loop early.',
    event: {kind: 'ab-invocation-stall', taskId: 'TASK-GCI-001', fatal: true}},
  {name: 'ab_max_turns db_max_turns_1.log:1329', line: 'WARNING:guardkit.orchestrator.autobuild:Max turns (25) exceeded for TASK-DB-006', event: {kind: 'ab-max-turns', taskId: 'TASK-DB-006', maxTurns: 25}},
  {name: 'ab_timeout_budget AOF-14:1116', line: 'INFO:guardkit.orchestrator.autobuild:Timeout budget exhausted for TASK-FIX-IA03 at turn 3: remaining=350.3s < min=600s',
    event: {kind: 'ab-timeout-budget', taskId: 'TASK-FIX-IA03', turn: 3, remaining: 350.3, min: 600}},
  {name: 'ab_cancel_between db_timeout.log:1423', line: 'INFO:guardkit.orchestrator.autobuild:Cancellation detected for TASK-DB-003 between Player and Coach at turn 18',
    event: {kind: 'ab-cancel', taskId: 'TASK-DB-003', turn: 18, where: 'between-player-and-coach'}},
  {name: 'ab_cancel_after db_timeout.log:1425', line: 'INFO:guardkit.orchestrator.autobuild:Cancellation detected after turn 18 for TASK-DB-003', event: {kind: 'ab-cancel', taskId: 'TASK-DB-003', turn: 18, where: 'after-turn'}},
  {name: 'ab_critical TASK-FIX-A7D3:729', line: 'ERROR:guardkit.orchestrator.autobuild:Critical error on turn 1', event: {kind: 'ab-critical-error', turn: 1}},
  {name: 'ab_complete FEAT-GI.log:223', line: 'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-GI-001, decision=approved, turns=2', event: {kind: 'ab-complete', taskId: 'TASK-GI-001', decision: 'approved', turns: 2}},
  {name: 'ab_recovery_attempt FEAT-GI.log:118', line: 'INFO:guardkit.orchestrator.autobuild:Attempting state recovery for TASK-GI-001 turn 1 after Player failure: SDK timeout after 900s: task-work execution exceeded 900s timeout',
    event: {kind: 'ab-recovery-attempt', taskId: 'TASK-GI-001', turn: 1, reason: 'SDK timeout after 900s: task-work execution exceeded 900s timeout'}},
  {name: 'ab_recovery_ok FEAT-GI.log:123', line: 'INFO:guardkit.orchestrator.autobuild:State recovery succeeded via git_only: 13 files, 0 tests (failing)',
    event: {kind: 'ab-recovery-ok', method: 'git_only', files: 13, tests: 0, passing: false}},
  {name: 'ab_use_llm TASK-FIX-A7D3:702', line: 'INFO:guardkit.orchestrator.autobuild:Using LLM Coach (primary) for TASK-FIX-A7D3 turn 1', event: {kind: 'ab-use-coach', taskId: 'TASK-FIX-A7D3', turn: 1, coach: 'llm'}},
  {name: 'pr_completed_feedback with timestamp FOREGE', line: 'INFO:guardkit.orchestrator.progress:[2026-04-26T07:37:59.197Z] Completed turn 1: feedback - Feedback: - Not all acceptance criteria met:',
    event: {kind: 'pr-completed', turn: 1, status: 'feedback', summary: 'Feedback: - Not all acceptance criteria met:', ts: '2026-04-26T07:37:59.197Z'}},
  {name: 'pr_started FEAT-GI.log:51', line: 'INFO:guardkit.orchestrator.progress:Started turn 1: Player Implementation', event: {kind: 'pr-started', turn: 1, phase: 'player'}},
  {name: 'ai_tooluse_write TASK-FIX-A7D3:86', line: 'INFO:guardkit.orchestrator.agent_invoker:[TASK-FIX-A7D3] ToolUseBlock Write input keys: [\'file_path\', \'content\']',
    event: {kind: 'ai-tool-keys', taskId: 'TASK-FIX-A7D3', tool: 'Write', keys: ['file_path', 'content']}},
  {name: 'ai_invoke_direct api_docs_2.log:179', line: 'INFO:guardkit.orchestrator.agent_invoker:Invoking Player via direct SDK for TASK-DOC-002 (turn 1)', event: {kind: 'ai-invoke', taskId: 'TASK-DOC-002', turn: 1, mode: 'direct'}},
  {name: 'ai_recovered_promises TASK-FIX-A7D3:100', line: 'INFO:guardkit.orchestrator.agent_invoker:Recovered 5 completion_promises from agent-written player report for TASK-FIX-A7D3',
    event: {kind: 'ai-recovered', taskId: 'TASK-FIX-A7D3', what: 'completion_promises', count: 5}},
  {name: 'ai_no_player_turn logging_feature_2.log:83', line: 'INFO:guardkit.orchestrator.agent_invoker:SDK did not write player_turn_1.json for TASK-LOG-001, creating synthetic report from git detection',
    event: {kind: 'ai-player-report', taskId: 'TASK-LOG-001', turn: 1, how: 'synthetic'}},
  {name: 'ai_written_report FEAT-GI.log:179', line: 'INFO:guardkit.orchestrator.agent_invoker:Written Player report to /Users/x/.guardkit/worktrees/FEAT-GI/.guardkit/autobuild/TASK-GI-001/player_turn_2.json',
    event: {kind: 'ai-player-report', taskId: 'TASK-GI-001', turn: 2, how: 'written'}},
  {name: 'cv_qg_complete FEAT-GI.log:187', line: 'INFO:guardkit.orchestrator.quality_gates.coach_validator:Quality gate evaluation complete: tests=True (required=False), coverage=True (required=False), arch=True (required=False), audit=True (required=True), ALL_PASSED=True',
    event: {kind: 'cv-gates', gates: {testsPassed: true, coverageMet: true, archReviewPassed: true, planAuditPassed: true, allPassed: true, testsRequired: false, coverageRequired: false, archReviewRequired: false}}},
  {name: 'cv_running_tests api_docs_2.log:202', line: 'INFO:guardkit.orchestrator.quality_gates.coach_validator:Running independent tests: pytest tests/core/test_openapi.py tests/test_main.py -v --tb=short',
    event: {kind: 'cv-test-run', via: 'shell', command: 'pytest tests/core/test_openapi.py tests/test_main.py -v --tb=short'}},
  {name: 'cv_running_tests_sdk AOF-14:255', line: 'INFO:guardkit.orchestrator.quality_gates.coach_validator:Running independent tests via SDK (environment parity): pytest tests/unit/test_agent_invoker.py tests/unit/test_doc_level_constraint.py -v --tb=short',
    event: {kind: 'cv-test-run', via: 'sdk', command: 'pytest tests/unit/test_agent_invoker.py tests/unit/test_doc_level_constraint.py -v --tb=short'}},
  {name: 'cv_tests_failed AOF-14:263', line: 'INFO:guardkit.orchestrator.quality_gates.coach_validator:SDK independent tests failed in 154.4s', event: {kind: 'cv-test-result', passed: false, seconds: 154.4}},
  {name: 'cv_indep_failed_class db_after_infra_aware_changes.log:359', line: 'WARNING:guardkit.orchestrator.quality_gates.coach_validator:Independent test verification failed for TASK-DB-003 (classification=infrastructure, confidence=ambiguous)',
    event: {kind: 'cv-test-class', taskId: 'TASK-DB-003', classification: 'infrastructure', confidence: 'ambiguous'}},
  {name: 'cv_zero_test api_docs_2.log:204', line: 'ERROR:guardkit.orchestrator.quality_gates.coach_validator:Zero-test anomaly: all_passed=true but tests_passed=0 and coverage=null. Player may have reported quality gates as passed without running tests.',
    event: {kind: 'cv-zero-test'}},
  {name: 'cv_diag_dump FOREGE:269', line: 'WARNING:guardkit.orchestrator.quality_gates.coach_validator:Criteria verification 0/8 - diagnostic dump:', event: {kind: 'cv-dump-header', met: 0, total: 8}},
  {name: 'cv_diag_strategy FOREGE:280', line: 'WARNING:guardkit.orchestrator.quality_gates.coach_validator:  matching_strategy: synthetic (no promises)', event: {kind: 'cv-dump-line', field: 'matching_strategy', value: 'synthetic (no promises)'}},
  {name: 'cv_req_not_met requirekit_cmds_1.log', line: 'INFO:guardkit.orchestrator.quality_gates.coach_validator:Requirements not met for TASK-RK01-003: missing [\'Config file exists at `installer/global/config/graphiti.yaml`\', \'Default is `enabled: false` (standalone mode)\']',
    event: {kind: 'cv-missing', taskId: 'TASK-RK01-003', missing: ['Config file exists at `installer/global/config/graphiti.yaml`', 'Default is `enabled: false` (standalone mode)']}},
  {name: 'cv_saved FEAT-GI.log:132', line: 'INFO:guardkit.orchestrator.quality_gates.coach_validator:Saved Coach decision to /Users/x/.guardkit/worktrees/FEAT-GI/.guardkit/autobuild/TASK-GI-001/coach_turn_1.json',
    event: {kind: 'cv-saved', taskId: 'TASK-GI-001', turn: 1}},
  {name: 'wc_creating FEAT-GI.log:138', line: 'INFO:guardkit.orchestrator.worktree_checkpoints:Creating checkpoint for TASK-GI-001 turn 1 (tests: fail, count: 0)',
    event: {kind: 'wc-creating', taskId: 'TASK-GI-001', turn: 1, testsPassed: false, count: 0}},
  // docs/guardkit-logic.md §7.3 (S004 Fix 1, from edb5fd18): in no corpus log; an era marker
  {name: 'cv prior-turn promises docs/guardkit-logic.md §7.3', line: 'INFO:guardkit.orchestrator.quality_gates.coach_validator:No completion_promises in current turn — recovered from player_turn_1.json (1 promises)',
    event: {kind: 'note', name: 'prior-turn-promises'}},
  // docs/guardkit-logic.md §9.2 (_auto_detect_direct_mode): in no corpus log
  {name: 'ai_mode auto-detected docs/guardkit-logic.md §9.2', line: 'INFO:guardkit.orchestrator.agent_invoker:[TASK-DB-002] Auto-detected direct mode (complexity=2, no high-risk keywords)',
    event: {kind: 'ai-mode', taskId: 'TASK-DB-002', mode: 'direct'}},
  {name: 'ai_mode auto-detected, fixed wording', line: 'INFO:guardkit.orchestrator.agent_invoker:[TASK-DB-002] Auto-detected direct mode (complexity=2, no high-risk keywords, ac_count=1)',
    event: {kind: 'ai-mode', taskId: 'TASK-DB-002', mode: 'direct'}},
  // docs/guardkit-logic.md §8.1 (_loop_phase, pollution rule): in no corpus log; it starts with C, as many autobuild records do
  {name: 'ab_rollback docs/guardkit-logic.md §8.1', line: 'WARNING:guardkit.orchestrator.autobuild:Context pollution detected, rolling back from turn 5 to turn 3',
    event: {kind: 'ab-rollback', turn: 5, toTurn: 3}},
  {name: 'wc_pollution FEAT-GI.log:199', line: 'WARNING:guardkit.orchestrator.worktree_checkpoints:Context pollution detected: 2 consecutive test failures in turns [1, 2]',
    event: {kind: 'wc-pollution', failures: 2, turns: [1, 2]}},
  {name: 'fk_err AOF-14 (event loop)', line: 'ERROR:graphiti_core.driver.falkordb_driver:Error executing FalkorDB query: <asyncio.locks.Lock object at 0x12065b8c0 [locked]> is bound to a different event loop',
    event: {kind: 'graphiti-error', errorKind: 'event-loop'}},
  {name: 'graphiti connection', line: 'WARNING:guardkit.knowledge.graphiti_client:Search request failed: Connection error.', event: {kind: 'graphiti-error', errorKind: 'connection'}},
  {name: 'no running loop', line: 'ERROR:graphiti_core.driver.falkordb_driver:Error executing FalkorDB query: no running event loop', event: {kind: 'graphiti-error', errorKind: 'no-running-loop'}},
]

describe('record grammar (docs/record-formats.md §5.4)', () => {
  it.each(CASES)('$name', ({line, event}) => {
    const [part] = splitPhysicalLine(line)
    if (part?.kind !== 'record') throw new Error('not a record')
    expect(parseRecord(part.level, part.logger, part.message)).toMatchObject(event)
  })

  it('counts what it does not know instead of guessing', () => {
    expect(parseRecord('INFO', 'guardkit.orchestrator.autobuild', 'Something new in a later GuardKit')).toBeNull()
    expect(parseRecord('INFO', 'unknown.logger', 'x')).toBeNull()
  })
})

describe('text readers', () => {
  it('reads Python list reprs, quotes and escapes included, and refuses a cut one', () => {
    expect(parsePyStrList(`['a', "b's", 'c\\'d', '']`)).toEqual(['a', 'b\'s', 'c\'d', ''])
    expect(parsePyStrList('[]')).toEqual([])
    expect(parsePyStrList(`['a', 'b`)).toBeNull()
    expect(parsePyStrList('not a list')).toBeNull()
  })

  it('reads key=value lists with commas inside brackets and a hard-wrapped record', () => {
    expect(parseParams('a=1, reset_turns=[3, 5],\nb=True')).toEqual({a: '1', reset_turns: '[3, 5]', b: 'True'})
  })
})
