import type {StallCheck} from './stall-detector.js'

/**
 * One sentence per `_is_feedback_stalled` call saying why it fired or not, for reports and the
 * dashboard (the structured `reason` stays the source of truth).
 */
export function describeStallCheck(check: StallCheck): string {
  const r = check.reason
  const sig = check.signatures.used
  switch (r.code) {
    case 'history-too-short':
      return `only ${r.have} feedback signature(s) recorded; the detector needs ${r.need}`
    case 'signatures-differ':
      return `the last ${check.threshold} signatures differ (${r.signatures.join(', ')})`
    case 'counts-differ':
      return `the last ${check.threshold} signatures are identical (${sig}) but the criteria counts differ (${r.counts.join(', ')})`
    case 'identical':
      return `the last ${check.threshold} signatures are identical (${sig}) with ${r.count} criteria passing each time: stall`
    case 'identical-zero-progress':
      return `the last ${check.threshold} signatures are identical (${sig}) with 0 criteria passing: stall`
    case 'identical-extended':
      return `the last ${r.extended} signatures are identical (${sig}) with ${r.count} criteria passing: stall at the extended threshold`
    case 'partial-progress-below-extended':
      return r.have < r.extended
        ? `identical for ${check.threshold} turns (${sig}) but ${r.count} criteria passing: the extended threshold needs ${r.extended} turns, ${r.have} recorded`
        : `identical for ${check.threshold} turns (${sig}) but ${r.count} criteria passing, and the last ${r.extended} turns are not all identical (signatures ${r.extendedSignatures.join(', ')}; counts ${r.extendedCounts.join(', ')})`
  }
}
