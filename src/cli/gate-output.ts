import {EXIT} from '../shared/exit-codes.js'
import {printJson} from '../shared/print-json.js'

/** What `gate` and `gate merge` print: a report, GitHub annotations, and the verdict as exit code. */
export interface GateOutput {
  readonly report: unknown
  readonly output: string
  readonly annotations: readonly string[]
  readonly exitCode: number
}

/**
 * Shows a gate verdict. As JSON (`--json` or `--format json`) stdout holds the one document, so the
 * annotations go to stderr (GitHub Actions reads both); `--json` itself prints through oclif.
 */
export function showGateOutput(result: GateOutput, json: boolean, jsonFlag: boolean, log: (line: string) => void): void {
  if (json) {
    for (const a of result.annotations) process.stderr.write(`${a}\n`)
    if (!jsonFlag) printJson(result.report)
  } else {
    log(result.output)
    for (const a of result.annotations) log(a)
  }
  if (result.exitCode !== 0) process.exitCode = EXIT.failed
}
