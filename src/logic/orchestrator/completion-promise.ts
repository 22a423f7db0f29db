import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyRepr} from '../python/repr.js'
import {enumValueError, type PyExceptionValue} from './py-exception.js'
import {asArray, asObject, dictGet, type JsonObject} from './turn-outcome.js'

/** `CriterionStatus` values: legacy knows `complete`/`incomplete`; fixed adds `partial` (c3feae49). */
export type CriterionStatus = 'complete' | 'incomplete' | 'partial'

/** `CompletionPromise` (`guardkit/orchestrator/schemas.py`), in `to_dict()` key order. */
export interface CompletionPromise {
  readonly criterion_id: unknown
  readonly criterion_text: unknown
  readonly status: CriterionStatus
  readonly evidence: unknown
  readonly test_file: unknown
  readonly implementation_files: unknown
}

export type FromDictResult<T> = {readonly ok: true; readonly value: T} | {readonly ok: false; readonly exception: PyExceptionValue}

/**
 * `CompletionPromise.from_dict(data)` (docs/guardkit-logic.md §8.6, D31). Legacy: any status other than
 * `complete`/`incomplete` raises ValueError, which crashes orchestration when it reaches the
 * progress display. Fixed: `partial` is valid, anything else becomes `incomplete` with a WARNING.
 */
export function completionPromiseFromDict(data: JsonObject, flags: LogicFlags, log: LogSink): FromDictResult<CompletionPromise> {
  const raw = dictGet(data, 'status', 'incomplete')
  let status: CriterionStatus
  if (raw === 'complete' || raw === 'incomplete') status = raw
  // partialStatusEnum (D31): fixed adds PARTIAL and maps unknown values to INCOMPLETE.
  else if (flags.partialStatusEnum && raw === 'partial') status = 'partial'
  else if (flags.partialStatusEnum) {
    log.emit('WARNING', LOGGERS.schemas, `Unknown CriterionStatus value ${pyRepr(raw)}, defaulting to INCOMPLETE`)
    status = 'incomplete'
  } else return {ok: false, exception: enumValueError(raw, 'CriterionStatus')}
  return {
    ok: true,
    value: {
      criterion_id: dictGet(data, 'criterion_id', ''),
      criterion_text: dictGet(data, 'criterion_text', ''),
      status,
      evidence: dictGet(data, 'evidence', ''),
      test_file: dictGet(data, 'test_file', null),
      implementation_files: Object.hasOwn(data, 'implementation_files') ? data.implementation_files : [],
    },
  }
}

/** Every promise of a player report through `from_dict`, stopping at the first exception as Python does. */
export function completionPromisesFromReport(report: JsonObject, flags: LogicFlags, log: LogSink): FromDictResult<CompletionPromise[]> {
  const out: CompletionPromise[] = []
  for (const p of asArray(dictGet(report, 'completion_promises', []))) {
    const parsed = completionPromiseFromDict(asObject(p) ?? {}, flags, log)
    if (!parsed.ok) return parsed
    out.push(parsed.value)
  }
  return {ok: true, value: out}
}
