import {canonicalJson} from '../shared/canonical-json.js'
import {resolveProfile} from '../logic/profiles.js'
import {ADAPTERS} from './adapters/index.js'
import {UnsupportedInput, type AdapterTable, type JsonObject} from './adapters/types.js'
import type {ParsedVectorLine} from './vector.js'

export type VectorStatus = 'pass' | 'fail' | 'unsupported'

export interface VectorResult {
  line: number
  fn: string
  version: string
  status: VectorStatus
  expected: unknown
  actual: unknown
  /** Why a vector is unsupported or invalid. */
  reason?: string
}

export interface ConformanceReport {
  total: number
  passed: number
  failed: number
  unsupported: number
  results: VectorResult[]
}

/**
 * Evaluate oracle vectors against the model. A vector passes when the model's value serialises
 * to the same JSON as the recorded output, key order included. Exceptions the model raises as values
 * (`{"exception": "Type: message"}`) compare like any other output.
 */
export function runVectors(lines: readonly ParsedVectorLine[], adapters: AdapterTable = ADAPTERS): ConformanceReport {
  const results: VectorResult[] = lines.map((entry) => {
    if (entry.kind === 'invalid') {
      return {line: entry.line, fn: '?', version: '?', status: 'unsupported', expected: null, actual: null, reason: entry.message}
    }
    const {vector, line} = entry
    const base = {line, fn: vector.fn, version: vector.version, expected: vector.output}
    const adapter = adapters[vector.fn]
    if (!adapter) return {...base, status: 'unsupported', actual: null, reason: `no model for function "${vector.fn}"`}
    const profile = resolveProfile(vector.version)
    if (!profile.ok) return {...base, status: 'unsupported', actual: null, reason: `unknown version "${vector.version}"`}
    if (vector.input === null || typeof vector.input !== 'object' || Array.isArray(vector.input)) {
      return {...base, status: 'unsupported', actual: null, reason: 'input is not an object'}
    }
    let actual: unknown
    try {
      actual = adapter(vector.input as JsonObject, {flags: profile.profile.flags, version: vector.version})
    } catch (error) {
      if (error instanceof UnsupportedInput) return {...base, status: 'unsupported', actual: null, reason: error.message}
      throw error
    }
    // Key order matters: GuardKit writes dicts in insertion order (docs/guardkit-logic.md §3.12).
    if (JSON.stringify(actual) === JSON.stringify(vector.output)) return {...base, status: 'pass', actual}
    const reason = canonicalJson(actual) === canonicalJson(vector.output) ? 'same values, different key order' : 'different value'
    return {...base, status: 'fail', actual, reason}
  })
  return {
    total: results.length,
    passed: results.filter((r) => r.status === 'pass').length,
    failed: results.filter((r) => r.status === 'fail').length,
    unsupported: results.filter((r) => r.status === 'unsupported').length,
    results,
  }
}
