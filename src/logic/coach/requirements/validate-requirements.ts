/**
 * `CoachValidator.validate_requirements(task, task_work_results, turn)` (docs/guardkit-logic.md §7.1, §7.2).
 *
 *   validateRequirements(task, taskWorkResults, turn, self): ValidateRequirementsResult
 *
 *   task             GuardKit's task dict; only `acceptance_criteria` is read (absent → []).
 *   taskWorkResults  `task_work_results.json` as parsed (GuardKit's dict, unchanged).
 *   turn             the turn number (null = Python None: no player reports are read).
 *   self             CoachContext: {taskId: the validator's own task id, worktree: WorktreeView holding
 *                    `.guardkit/autobuild/{id}/player_turn_N.json`, flags: LogicFlags, log: LogSink}.
 *
 * Returns `{ok: true, validation, explanation}` with `validation` GuardKit's RequirementsValidation
 * (snake_case, key order as serialised), or `{ok: false, exception: "AttributeError: …"}` where
 * GuardKit raises out of `validate()` (e.g. a prior `player_turn_N.json` holding a JSON array), which
 * makes the orchestrator fall back to the LLM Coach. Log records go to `self.log`: INFO `Synthetic
 * report detected …`, INFO prior-turn recovery / hybrid upgrades, WARNING synthetic-no-promises and
 * the 0/N diagnostic dump. `explanation` is the explainer's side channel (not GuardKit output): the
 * strategy, where the promises came from, and per criterion which strategy decided it, what each
 * strategy saw and the closest requirement with its score against the matching rule.
 */
import {LOGGERS} from '../../log-sink.js'
import {PyException, pyIterate, pyLenOf} from '../../python/builtins.js'
import {pyStrAt} from '../../python/repr.js'
import {pyTruthy} from '../../python/strings.js'
import {buildAllUnmet} from './build-all-unmet.js'
import {emitDiagnosticDump, type DumpForm} from './diagnostic-dump.js'
import {hybridFallback} from './hybrid-fallback.js'
import {loadCompletionPromises, type CoachContext, type LoadedPromises} from './load-completion-promises.js'
import {matchByPromisesTraced, type PromiseMatch} from './match-by-promises.js'
import {matchByTextTraced, type TextMatch} from './match-by-text.js'
import type {CriterionExplanation, Decider, MatchingStrategy, RequirementsExplanation, RequirementsValidation} from './types.js'

export type {CoachContext} from './load-completion-promises.js'

export type ValidateRequirementsResult =
  | {readonly ok: true; readonly validation: RequirementsValidation; readonly explanation: RequirementsExplanation}
  | {readonly ok: false; readonly exception: string}

type Dict = Record<string, unknown>

const get = (d: Dict, key: string, fallback: unknown): unknown => (Object.prototype.hasOwnProperty.call(d, key) ? d[key] : fallback)

export function validateRequirements(task: Dict, taskWorkResults: Dict, turn: number | null, self: CoachContext): ValidateRequirementsResult {
  const unknownsBefore = self.worktree.unknowns.length
  try {
    const out = validate(task, taskWorkResults, turn, self)
    return {ok: true, validation: out.validation, explanation: {...out.explanation, unknowns: self.worktree.unknowns.slice(unknownsBefore)}}
  } catch (error) {
    if (error instanceof PyException) return {ok: false, exception: error.text}
    throw error
  }
}

interface Outcome {
  validation: RequirementsValidation
  explanation: RequirementsExplanation
}

function validate(task: Dict, twr: Dict, turn: number | null, self: CoachContext): Outcome {
  const {flags, log} = self
  const ac = get(task, 'acceptance_criteria', [])
  const synthetic = get(twr, '_synthetic', false)
  const syntheticText = Object.prototype.hasOwnProperty.call(twr, '_synthetic') ? pyStrAt(twr, '_synthetic') : 'False'
  const dump = (v: RequirementsValidation, form: DumpForm, always = false): boolean => {
    // acrDiagnosticDump (pre-acr vs legacy, docs/guardkit-logic.md §7.2): pre-acr logs no dump at all.
    if (!flags.acrDiagnosticDump || (!always && !(v.criteria_met === 0 && v.criteria_total > 0))) return false
    emitDiagnosticDump(log, pyIterate(ac), v.criteria_total, form)
    return true
  }

  if (pyTruthy(synthetic)) {
    log.emit('INFO', LOGGERS.coach, 'Synthetic report detected — using file-existence verification')
    const loaded = loadCompletionPromises(twr, turn, self)
    if (pyTruthy(loaded.promises)) {
      const pm = matchByPromisesTraced(ac, loaded.promises, flags)
      const dumped = dump(pm.validation, {kind: 'synthetic-promises', promises: loaded.promises})
      return explained(pm.validation, 'synthetic-promises', synthetic, loaded, null, dumped, promiseCriteria(ac, pm))
    }
    log.emit('WARNING', LOGGERS.coach, 'Synthetic report has no completion_promises — all criteria marked unmet')
    // The dump is unconditional here (even 0/0); len(ac) is taken before the unmet list is built.
    const total = pyLenOf(ac)
    const dumped = dump({criteria_total: total, criteria_met: 0, all_criteria_met: false, missing: [], criteria_results: []}, {kind: 'synthetic-none'}, true)
    const v = buildAllUnmet(ac)
    const criteria = v.criteria_results.map((r, index): CriterionExplanation => ({
      index, criterion_id: r.criterion_id, text: r.criterion_text, verdict: 'rejected', decidedBy: 'synthetic-unmet', promise: null, text_match: null,
    }))
    return explained(v, 'synthetic-none', synthetic, loaded, null, dumped, criteria)
  }

  const loaded = loadCompletionPromises(twr, turn, self)
  if (pyTruthy(loaded.promises)) {
    const pm = matchByPromisesTraced(ac, loaded.promises, flags)
    let v = pm.validation
    let strategy: 'promises' | 'hybrid' = 'promises'
    let requirements: {source: string | null; value: unknown} | null = null
    let criteria = promiseCriteria(ac, pm)
    // hybridFallback (D24): criteria with no promise are text-matched against requirements_addressed.
    if (flags.hybridFallback && !v.all_criteria_met) {
      const source = requirementsSource(twr, true)
      const ra = source === null ? [] : twr[source]
      if (pyTruthy(ra)) {
        const merged = hybridFallback(v, ac, ra, flags, log, source)
        v = merged.validation
        strategy = 'hybrid'
        requirements = {source, value: ra}
        criteria = criteria.map((c, i) => ({
          ...c,
          verdict: v.criteria_results[i]!.result,
          decidedBy: merged.upgraded.includes(i) ? 'hybrid-text' : c.decidedBy,
          text_match: merged.text.traces[i] ?? null,
        }))
      }
    }
    const dumped = dump(v, {kind: 'normal', strategy, requirements: null, promises: loaded.promises, syntheticText})
    return explained(v, strategy, synthetic, loaded, requirements, dumped, criteria)
  }

  // requirementsAddressedSource (D25): fixed reads requirements_addressed when the key exists, even [].
  const source = requirementsSource(twr, flags.requirementsAddressedSource)
  const rm = source === null ? [] : twr[source]
  const tm = matchByTextTraced(ac, rm, flags, source)
  const dumped = dump(tm.validation, {kind: 'normal', strategy: 'text', requirements: rm, promises: loaded.promises, syntheticText})
  return explained(tm.validation, 'text', synthetic, loaded, {source, value: rm}, dumped, textCriteria(tm))
}

/** The twr key the text strategy reads: `requirements_addressed` (when preferred and present), else `requirements_met`. */
function requirementsSource(twr: Dict, preferAddressed: boolean): string | null {
  if (preferAddressed && Object.prototype.hasOwnProperty.call(twr, 'requirements_addressed')) return 'requirements_addressed'
  if (Object.prototype.hasOwnProperty.call(twr, 'requirements_met')) return 'requirements_met'
  return null
}

function promiseCriteria(ac: unknown, pm: PromiseMatch): CriterionExplanation[] {
  const texts = pyIterate(ac)
  return pm.validation.criteria_results.map((r, index) => ({
    index, criterion_id: r.criterion_id, text: texts[index], verdict: r.result,
    decidedBy: pm.deciders[index]!, promise: pm.traces[index]!, text_match: null,
  }))
}

function textCriteria(tm: TextMatch): CriterionExplanation[] {
  return tm.validation.criteria_results.map((r, index) => {
    const trace = tm.traces[index]!
    const decidedBy: Decider = trace.step === null ? 'text-none' : `text-${trace.step}`
    return {index, criterion_id: r.criterion_id, text: r.criterion_text, verdict: r.result, decidedBy, promise: null, text_match: trace}
  })
}

function explained(
  validation: RequirementsValidation,
  strategy: MatchingStrategy,
  synthetic: unknown,
  loaded: LoadedPromises,
  requirements: {source: string | null; value: unknown} | null,
  dumped: boolean,
  criteria: readonly CriterionExplanation[],
): Outcome {
  return {
    validation,
    explanation: {strategy, synthetic, promiseSource: loaded.source, promises: loaded.promises, requirements, dumped, unknowns: [], criteria},
  }
}
