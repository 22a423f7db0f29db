import {pyHead} from '../../../logic/python/strings.js'
import type {Evidence} from '../../../model/evidence.js'
import type {LogEvent} from '../events.js'
import {firstFact, lastFact, offer, outranks} from './candidate.js'
import {intern, keep} from './keep.js'
import {addEvent, roomForEvent, type TaskDraft, turnOf} from './task-draft.js'
import {feedbackFromSummary, filesOfSummary, MAX_TOOL_CALLS_PER_TURN} from './turn-draft.js'
import {applyDumpLine, applyProgress, applySdkTurns, currentTurn} from './turn-events.js'

/** Fold one event attributed to `task` (and `turnNo`, when known) into its draft. */
export function applyTaskEvent(task: TaskDraft, turnNo: number | null, e: LogEvent, ev: Evidence, lastTs: string | null): void {
  const t = turnNo !== null && turnNo >= 1 ? turnOf(task, turnNo) : null
  if (e.kind !== 'cv-dump-line' && e.kind !== 'cv-dump-header') task.openDump = null
  switch (e.kind) {
    case 'ab-init': {
      const max = Number(e.params.max_turns)
      if (Number.isFinite(max) && e.params.max_turns !== undefined) task.maxTurns ??= {value: max, evidence: [ev]}
      break
    }
    case 'ab-exec-turn':
      task.maxTurns ??= {value: e.maxTurns, evidence: [ev]}
      if (turnNo !== null && (task.lastStarted === null || turnNo >= task.lastStarted.turn)) task.lastStarted = {turn: turnNo, evidence: ev}
      break
    case 'ab-perspective-reset':
      if (t) t.perspectiveReset = lastFact(true, ev)
      break
    case 'ai-invoke':
    case 'ai-mode':
      task.mode = firstFact(task.mode, e.mode, ev)
      break
    case 'ai-tool-keys':
      if (t && t.toolKeys.length < MAX_TOOL_CALLS_PER_TURN) {
        t.toolKeys.push(e.keys)
        if (t.toolKeysEvidence.length < 8) t.toolKeysEvidence.push({...ev, note: e.tool})
      }
      break
    case 'ai-sdk-timeout':
      addEvent(task, {kind: 'player-timeout', turn: turnNo, seconds: e.seconds, evidence: [ev]})
      break
    case 'ai-sdk-turns':
      if (t) applySdkTurns(t, e.used, e.max, ev)
      break
    case 'ai-player-report':
      if (t) {
        const source = e.how === 'synthetic' ? 'direct-synthetic' : e.how === 'direct' ? 'direct-agent' : 'task-work-delegation'
        t.reportSource = offer(t.reportSource, source, e.how === 'synthetic' ? 2 : 1, ev)
      }
      break
    case 'ai-recovered':
      if (t && e.what === 'completion_promises') t.promisesRecovered = lastFact(e.count, ev)
      break
    case 'ai-error':
      if (roomForEvent(task, 'other')) task.events.push({kind: 'other', name: 'player-invocation-error', turn: turnNo, detail: keep(pyHead(e.text, 500)), evidence: [ev]})
      break
    case 'ab-recovery-attempt':
      if (t) {
        t.stateRecovery = {value: {reason: keep(e.reason), method: null, files: null, tests: null, testsPassing: null}, evidence: [ev]}
        t.reportSource = offer(t.reportSource, 'state-recovery', 3, ev)
      }
      if (/^SDK timeout/i.test(e.reason)) {
        const seconds = /after (\d+)s/.exec(e.reason)
        addEvent(task, {kind: 'player-timeout', turn: turnNo, seconds: seconds ? Number(seconds[1]) : null, evidence: [ev]})
      }
      break
    case 'ab-recovery-ok':
      if (t) {
        const prev = t.stateRecovery
        t.stateRecovery = {value: {reason: prev?.value.reason ?? null, method: e.method, files: e.files, tests: e.tests, testsPassing: e.passing},
          evidence: [...(prev?.evidence ?? []), ev]}
      }
      break
    case 'ab-synthetic':
      if (roomForEvent(task, 'other')) task.events.push({kind: 'other', name: `synthetic-report-${e.step}`, turn: turnNo, detail: keep(pyHead(e.text, 300)), evidence: [ev]})
      break
    case 'ab-criteria-progress':
      if (t) {
        t.criteriaMet = lastFact(e.met, ev)
        t.criteriaTotal = lastFact(e.total, ev)
        t.hasResult = true
      }
      break
    case 'ab-criteria-counts':
      if (t) {
        t.verified = lastFact(e.verified, ev)
        t.rejected = lastFact(e.rejected, ev)
        t.pending = lastFact(e.pending, ev)
      }
      break
    case 'wc-creating':
      if (t) t.checkpoint = {value: {hash: t.checkpoint?.value.hash ?? null, testsPassed: e.testsPassed, testCount: e.count}, evidence: [ev]}
      break
    case 'wc-created':
    case 'ab-checkpoint':
      if (t) {
        const prev = t.checkpoint
        t.checkpoint = {value: {hash: e.kind === 'wc-created' ? e.hash : e.hash, testsPassed: prev?.value.testsPassed ?? null, testCount: prev?.value.testCount ?? null},
          evidence: [...(prev?.evidence ?? []), ev].slice(0, 4)}
      }
      break
    case 'ab-coach-turn':
      if (t) {
        t.decision = offer(t.decision, e.decision, 2, ev)
        t.hasResult = true
      }
      break
    case 'cv-approved':
      if (t) {
        t.decision = offer(t.decision, 'approve', 3, ev)
        t.hasResult = true
      }
      break
    case 'ab-critical-error':
      if (t) t.decision = offer(t.decision, 'error', 1, ev)
      addEvent(task, {kind: 'critical-error', turn: turnNo, message: null, evidence: [ev]})
      break
    case 'ab-verdict-failed':
      if (t) t.coachError ??= {value: keep(pyHead(`verdict: ${e.message}`, 500)), evidence: [ev]}
      if (roomForEvent(task, 'other')) task.events.push({kind: 'other', name: 'coach-verdict-emission-failed', turn: turnNo, detail: keep(pyHead(e.message, 500)), evidence: [ev]})
      break
    case 'cv-phase-error':
      if (t) t.coachError ??= {value: keep(pyHead(`${e.phase}: ${e.text}`, 500)), evidence: [ev]}
      if (roomForEvent(task, 'other')) task.events.push({kind: 'other', name: `coach-${e.phase}-error`, turn: turnNo, detail: keep(pyHead(e.text, 500)), evidence: [ev]})
      break
    case 'ai-specialist':
      if (roomForEvent(task, 'other')) task.events.push({kind: 'other', name: `specialist-${e.what}`, turn: turnNo, detail: keep(pyHead(`${e.role}: ${e.text}`, 500)), evidence: [ev]})
      break
    case 'ab-stall-warning':
      task.stall = {kind: 'feedback', turn: turnNo, signature: e.signature, windowTurns: e.turns, criteriaPassing: e.passing, extended: e.extended,
        errorText: task.stall?.errorText ?? null, evidence: [...(task.stall?.evidence ?? []), ev]}
      break
    case 'ab-stall-error': {
      const s = task.stall
      task.stall = {kind: 'feedback', turn: s?.turn ?? turnNo, signature: s?.signature ?? null, windowTurns: s?.windowTurns ?? null,
        criteriaPassing: s?.criteriaPassing ?? e.passing, extended: s?.extended ?? false, errorText: keep(e.text), evidence: [...(s?.evidence ?? []), ev]}
      break
    }
    case 'ab-partial-stall':
      addEvent(task, {kind: 'partial-progress-warning', turn: turnNo, evidence: [ev]})
      break
    case 'ab-pollution-stall':
      task.stall = {kind: 'context-pollution', turn: turnNo, signature: null, windowTurns: null, criteriaPassing: null, extended: false, errorText: e.text,
        evidence: [ev]}
      break
    case 'ab-invocation-stall':
      if (e.fatal) {
        task.stall = {kind: 'player-invocation', turn: turnNo, signature: null, windowTurns: null, criteriaPassing: null, extended: false, errorText: e.text, evidence: [ev]}
      } else addEvent(task, {kind: 'other', name: 'player-invocation-stall-warning', turn: turnNo, detail: e.text, evidence: [ev]})
      break
    case 'wc-pollution':
      addEvent(task, {kind: 'context-pollution', turn: turnNo, failures: e.failures, turns: e.turns, evidence: [ev]})
      break
    case 'wc-no-passing':
      addEvent(task, {kind: 'other', name: 'no-passing-checkpoint', turn: turnNo, detail: 'No passing checkpoints found in history', evidence: [ev]})
      break
    case 'ab-rollback':
      addEvent(task, {kind: 'rollback', turn: turnNo, toCheckpoint: String(e.toTurn), evidence: [ev]})
      break
    case 'ab-max-turns':
      addEvent(task, {kind: 'max-turns-exceeded', maxTurns: e.maxTurns, evidence: [ev]})
      break
    case 'ab-timeout-budget':
      addEvent(task, {kind: 'timeout-budget-exhausted', turn: turnNo, evidence: [ev]})
      break
    case 'ab-cancel':
      addEvent(task, {kind: 'cancelled', turn: turnNo, where: e.where, evidence: [ev]})
      break
    case 'feature-task-timeout':
      addEvent(task, {kind: 'feature-timeout', turn: currentTurn(task), seconds: e.seconds, evidence: [ev]})
      break
    case 'ab-orchestration-failed':
      addEvent(task, {kind: 'orchestration-crash', turn: turnNo, message: e.message, evidence: [ev]})
      task.error ??= {value: keep(pyHead(e.message.replace(/\s*\n\s*/g, ' '), 500)), evidence: [ev]}
      break
    case 'c-task-error':
      task.error ??= {value: keep(pyHead(e.message.replace(/\s*\n\s*/g, ' '), 500)), evidence: [ev]}
      break
    case 'c-task-result':
      if (e.turns === null) task.waveDecision ??= {value: intern(e.decision), evidence: [ev]}
      break
    case 'c-traceback': {
      const crash = e.lines.find((l) => l.includes('is not a valid CriterionStatus'))
      if (crash !== undefined) addEvent(task, {kind: 'orchestration-crash', turn: turnNo, message: crash.replace(/^\s+/, ''), evidence: [ev]})
      break
    }
    case 'ab-complete':
      task.outcome = {value: intern(e.decision), evidence: [ev]}
      task.turnCount = {value: e.turns, evidence: [ev]}
      break
    case 'pr-started':
      if (t && e.phase === 'player' && e.ts !== undefined) t.startedAt ??= e.ts
      break
    case 'pr-completed':
      if (t) applyProgress(t, e.status, e.summary, ev, e.ts)
      break
    case 'cv-profile':
      task.taskType = firstFact(task.taskType, intern(e.taskType), ev)
      break
    case 'cv-gates':
      if (t) t.gates = lastFact(e.gates, ev)
      break
    case 'cv-gates-failed':
      if (roomForEvent(task, 'other')) task.events.push({kind: 'other', name: 'quality-gates-failed', turn: turnNo, detail: keep(pyHead(e.text, 500)), evidence: [ev]})
      break
    case 'cv-tests-skipped':
      if (t) t.independentTests = lastFact({passed: true, durationSeconds: null, skipped: true}, {...ev, note: e.reason})
      break
    case 'cv-test-run':
      if (t) {
        t.testCommand = lastFact(keep(e.command), ev)
        t.testVia = lastFact(keep(e.via), ev)
      }
      break
    case 'cv-test-result':
      if (t) t.independentTests = lastFact({passed: e.passed, durationSeconds: e.seconds}, ev)
      break
    case 'cv-test-class':
      if (t) t.testFailureClass = lastFact({classification: e.classification, confidence: e.confidence}, ev)
      break
    case 'cv-zero-test':
      if (t) t.zeroTestAnomaly = firstFact(t.zeroTestAnomaly, true, ev)
      break
    case 'cv-dump-header':
      if (t) {
        t.dump = {value: {met: e.met, total: e.total, criteria: [], requirementsMet: '', completionPromises: '', matchingStrategy: '', synthetic: null,
          lines: [`Criteria verification ${e.met}/${e.total} - diagnostic dump:`]}, evidence: [ev]}
        task.openDump = t
      }
      break
    case 'cv-dump-line':
      applyDumpLine(task, e.field, e.value, ev)
      break
    case 'cv-missing':
      if (t && e.missing !== null) t.missingCriteria = lastFact(e.missing, ev)
      // a longer missing list replaces a shorter one: only a 0/N turn's names every criterion (task-draft.ts keeps only that)
      if (e.missing !== null && (task.criteria === null || task.criteria.source === 'diagnostic-dump' || (task.criteria.source === 'missing-list' && task.criteria.texts.length < e.missing.length))) {
        task.criteria = {texts: e.missing, source: 'missing-list', complete: true, evidence: [ev]}
      }
      break
    case 'graphiti-error':
      if (roomForEvent(task, 'graphiti-error')) {
        task.events.push({kind: 'graphiti-error', turn: turnNo, errorKind: e.errorKind, timestamp: e.ts ?? lastTs, evidence: [{...ev, note: keep(pyHead(e.text, 200))}]})
      }
      break
    case 'c-player':
      if (t) {
        t.playerStatus = offer(t.playerStatus, e.status, 1, ev)
        t.hasResult = true
        const files = t.filesCreated === null ? filesOfSummary(e.text) : null
        if (files !== null && t.filesCreated === null) {
          t.filesCreated = {value: files.created, evidence: [ev]}
          t.filesModified = {value: files.modified, evidence: [ev]}
          if (files.tests !== null) t.testsReported = {value: files.tests, evidence: [ev]}
        }
        if (e.status === 'error') t.playerError ??= {value: keep(e.text), evidence: [ev]}
      }
      break
    case 'c-coach':
      if (t) {
        t.decision = offer(t.decision, e.decision, 0, ev)
        t.hasResult = true
        const fb = outranks(t.feedback, 1) ? feedbackFromSummary(e.text, ev) : null
        if (fb !== null) t.feedback = offer(t.feedback, fb, 1, ev)
      }
      break
    default:
      break
  }
}
