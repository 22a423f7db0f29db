import {homedir, hostname, userInfo} from 'node:os'
import type {AnalysisReport} from '../explain/analysis.js'
import {redactValue, type RedactionIdentities} from '../shared/redact.js'

/**
 * The names of the machine guardkit-replay runs on (its user, host and home), redacted besides
 * those found in the run, as UTF-8 read one char per byte (`latin1`) when `bytes` is set: the
 * form `record` redacts files in.
 */
export function machineIdentities(options: {bytes?: boolean} = {}): RedactionIdentities {
  const as = (s: string) => (options.bytes === true ? Buffer.from(s, 'utf8').toString('latin1') : s)
  let user = ''
  try {
    user = userInfo().username
  } catch {
    // no passwd entry (some containers): nothing to add
  }
  return {users: [as(user)], hosts: [as(hostname())], homes: [as(homedir())]}
}

/** `analyze --redact`: the report with every text redacted; verdicts, signatures and codes are values it does not touch. */
export function redactReport(report: AnalysisReport, identities: RedactionIdentities = machineIdentities()): AnalysisReport {
  return redactValue(report, identities)
}
