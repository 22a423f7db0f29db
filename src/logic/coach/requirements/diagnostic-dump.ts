import {LOGGERS, type LogSink} from '../../log-sink.js'
import {pyStr, pyStrAt} from '../../python/repr.js'
import {pyHead} from '../../python/strings.js'

/** The three forms of the 0/N dump (docs/guardkit-logic.md §7.2). */
export type DumpForm =
  | {readonly kind: 'normal'; readonly strategy: 'text' | 'promises' | 'hybrid'; readonly requirements: unknown; readonly promises: unknown; readonly syntheticText: string}
  | {readonly kind: 'synthetic-promises'; readonly promises: unknown}
  | {readonly kind: 'synthetic-none'}

/**
 * The `Criteria verification 0/N - diagnostic dump:` block (docs/guardkit-logic.md §7.2): one WARNING record per line
 * on logger `guardkit.orchestrator.quality_gates.coach_validator`; each AC is `%.100s` (100 code
 * points of `str(ac)`), lists are `str()` = Python repr.
 */
export function emitDiagnosticDump(log: LogSink, ac: readonly unknown[], total: number, form: DumpForm): void {
  const warn = (message: string) => log.emit('WARNING', LOGGERS.coach, message)
  warn(`Criteria verification 0/${total} - diagnostic dump:`)
  ac.forEach((_, i) => warn(`  AC text: ${pyHead(pyStrAt(ac, i), 100)}`))
  switch (form.kind) {
    case 'normal':
      warn(`  requirements_met: ${form.strategy === 'text' ? pyStr(form.requirements) : '(not used)'}`)
      warn(`  completion_promises: ${form.strategy === 'promises' ? pyStr(form.promises) : '(not used)'}`)
      warn(`  matching_strategy: ${form.strategy}`)
      warn(`  _synthetic: ${form.syntheticText}`)
      return
    case 'synthetic-promises':
      warn(`  completion_promises: ${pyStr(form.promises)}`)
      warn('  matching_strategy: promises (synthetic)')
      warn('  _synthetic: True')
      return
    case 'synthetic-none':
      warn('  completion_promises: (empty)')
      warn('  requirements_met: (not used - synthetic path)')
      warn('  matching_strategy: synthetic (no promises)')
      warn('  _synthetic: True')
  }
}
