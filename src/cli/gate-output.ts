import type {Format} from '../render/present.js'
import type {GateReport} from '../render/gate-report.js'
import {EXIT} from '../shared/exit-codes.js'
import {show} from './present.js'

/** What `gate` and `gate merge` hand back: the report, GitHub annotations, and the verdict as exit code. */
export interface GateOutput {
  readonly report: GateReport
  readonly annotations: readonly string[]
  readonly exitCode: number
}

/**
 * Shows a gate verdict. As JSON (`--json` or `--format json`) stdout holds the one document, so the
 * annotations go to stderr (GitHub Actions reads both); otherwise they follow the report on stdout.
 * Returns the document for oclif to print under `--json`.
 */
export async function showGateOutput(result: GateOutput, options: {readonly format: Format; readonly verbose: boolean; readonly jsonFlag: boolean; readonly quiet?: boolean}, log: (line: string) => void): Promise<unknown> {
  const json = options.jsonFlag || options.format === 'json'
  if (options.quiet === true && !options.jsonFlag) {
    if (result.exitCode !== 0) process.exitCode = EXIT.failed
    return undefined
  }
  const shown = await show({kind: 'gate', report: result.report}, {format: json ? 'json' : options.format, verbose: options.verbose, jsonFlag: options.jsonFlag}, log)
  for (const a of result.annotations) {
    if (json) process.stderr.write(`${a}\n`)
    else log(a)
  }
  if (result.exitCode !== 0) process.exitCode = EXIT.failed
  return shown.json
}
