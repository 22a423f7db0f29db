import type {LogicFlags} from '../changes.js'
import {pyRegex} from '../python/regex.js'
import {pyLower, pyTruthy} from '../python/strings.js'

export type FailureClass = 'code' | 'infrastructure' | 'sdk_api_error'
export type FailureConfidence = 'high' | 'ambiguous' | 'n/a'

export interface FailureClassification {
  readonly failureClass: FailureClass
  /** null before infraTiers (ca7c161a), when the classifier returned the class alone. */
  readonly confidence: FailureConfidence | null
}

/** `_KNOWN_SERVICE_CLIENT_LIBS` (fixed): psycopg2 is deliberately absent since TASK-FIX-A7F1. */
const KNOWN_SERVICE_CLIENT_LIBS = ['asyncpg', 'pymongo', 'redis', 'psycopg', 'sqlalchemy', 'motor', 'aioredis', 'cassandra']
const SDK_API_ERROR_PATTERNS = ['SDK API error', 'invalid_request', 'invalid_request_error', 'AssistantMessage.error']
const INFRA_HIGH_CONFIDENCE = [
  'ConnectionRefusedError', 'ConnectionError', 'Connection refused', 'could not connect to server', 'OperationalError',
  'psycopg2', 'psycopg', 'asyncpg', 'sqlalchemy.exc.OperationalError', 'django.db.utils.OperationalError',
  'pymongo.errors.ServerSelectionTimeoutError', 'redis.exceptions.ConnectionError',
]
const INFRA_AMBIGUOUS = ['ModuleNotFoundError', 'ImportError', 'No module named']

const NO_MODULE_NAMED = pyRegex("no module named '([^']+)'", 'i')

/** The top-level module a `ModuleNotFoundError` names, case kept (`'SQLAlchemy'` ≠ `sqlalchemy`). */
export function missingModule(rawOutput: string): string | null {
  const low = pyLower(rawOutput)
  if (!(low.includes('modulenotfounderror') && low.includes('no module named'))) return null
  const m = NO_MODULE_NAMED.exec(rawOutput)
  return m ? m[1]!.split('.')[0]! : null
}

/**
 * `CoachValidator._classify_test_failure(raw_output, requires_infrastructure)` (docs/guardkit-logic.md §6.7). It
 * reads the raw output, not the summary; a result without raw output classifies as code.
 * Before infraTiers the classifier (as first landed in 5c2b5d82, docs/guardkit-logic.md §2 S002) returned the
 * class alone, from the union of both pattern lists; the intermediate orders of 09da8a9a..22c32d91 are inferred.
 */
export function classifyTestFailure(rawOutput: string | null, requiresInfrastructure: unknown, flags: LogicFlags): FailureClassification {
  if (!rawOutput) return {failureClass: 'code', confidence: flags.infraTiers ? 'n/a' : null}
  const low = pyLower(rawOutput)
  const has = (patterns: readonly string[]) => patterns.some((p) => low.includes(pyLower(p)))
  // infraTiers (D23): without tiers every pattern means infrastructure, with no confidence.
  if (!flags.infraTiers) return {failureClass: has([...INFRA_HIGH_CONFIDENCE, ...INFRA_AMBIGUOUS]) ? 'infrastructure' : 'code', confidence: null}
  // mnfeFirst (D23): a ModuleNotFoundError is judged by its module before any other pattern.
  if (flags.knownServiceLibs && flags.mnfeFirst) {
    const byModule = classifyMissingModule(rawOutput, requiresInfrastructure, flags)
    if (byModule) return byModule
  }
  // sdkApiErrorClass (D23): API errors of the SDK test runner are their own class.
  if (flags.sdkApiErrorClass && has(SDK_API_ERROR_PATTERNS)) return {failureClass: 'sdk_api_error', confidence: 'high'}
  if (has(INFRA_HIGH_CONFIDENCE)) return {failureClass: 'infrastructure', confidence: 'high'}
  // knownServiceLibs (D23): before mnfeFirst the known-library rule came after the high patterns.
  if (flags.knownServiceLibs && !flags.mnfeFirst) {
    const byModule = classifyMissingModule(rawOutput, requiresInfrastructure, flags)
    if (byModule) return byModule
  }
  if (has(INFRA_AMBIGUOUS)) return {failureClass: 'infrastructure', confidence: 'ambiguous'}
  return {failureClass: 'code', confidence: 'n/a'}
}

function classifyMissingModule(rawOutput: string, requiresInfrastructure: unknown, flags: LogicFlags): FailureClassification | null {
  const mod = missingModule(rawOutput)
  if (mod === null) return null
  // mnfeFirst (D23): psycopg2 left the known libraries in the same change.
  const known = flags.mnfeFirst ? KNOWN_SERVICE_CLIENT_LIBS : [...KNOWN_SERVICE_CLIENT_LIBS, 'psycopg2']
  if (known.includes(mod)) return {failureClass: 'infrastructure', confidence: 'high'}
  if (!flags.mnfeFirst) return null
  if (pyTruthy(requiresInfrastructure)) return {failureClass: 'code', confidence: 'high'}
  return {failureClass: 'infrastructure', confidence: 'ambiguous'}
}
