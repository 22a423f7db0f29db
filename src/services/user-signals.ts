import {readFile} from 'node:fs/promises'
import {catalogueWith} from '../explain/diagnosis/catalogue/builtin.js'
import {parseSignalRules, type RuleFileIssue} from '../explain/diagnosis/catalogue/parse-rules.js'
import type {Catalogue, SignalRule} from '../explain/diagnosis/catalogue/rule.js'
import {feedbackSignals} from '../explain/diagnosis/task-signals.js'
import {createLogIngest} from '../ingest/index.js'
import type {Signal} from '../model/signal.js'
import {UsageError} from '../shared/errors.js'

/**
 * `--signals FILE`: a user's signal rules (docs/signals.md), the built-in schema, checked like the
 * built-in ones — each example line is run through ingest and must be classified by its own rule.
 * Every problem is reported with the file and the line, and the run is not analysed until the file is
 * right (exit 2): rules that silently do nothing would be worse than none.
 */
export async function loadSignalCatalogue(file: string | undefined): Promise<Catalogue | undefined> {
  if (file === undefined) return undefined
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(`Cannot read the signal rules file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`)
  }
  const {rules, issues} = parseSignalRules(text, file)
  const catalogue = catalogueWith(rules)
  const all = [...issues, ...rules.flatMap((r) => exampleIssues(r, catalogue))].sort((a, b) => a.line - b.line)
  if (all.length > 0) {
    throw new UsageError(
      [`${file}: ${all.length === 1 ? 'a problem' : `${all.length} problems`} in the signal rules:`, ...all.slice(0, 20).map((i) => `  ${i.file}:${i.line}: ${i.message}`)].join('\n'),
      'docs/signals.md shows a rule; each needs id, category, stage, match.pattern, summary, means, action and an example line it classifies.',
    )
  }
  return catalogue
}

/** A rule's examples, each read as a log line by ingest, must give a signal the rule matches. */
function exampleIssues(rule: SignalRule, catalogue: Catalogue): RuleFileIssue[] {
  return rule.examples.flatMap((example, i) => {
    const signals = signalsOfLine(example)
    if (signals.some((s) => catalogue.matches(rule, s))) return []
    const line = rule.origin.exampleLines?.[i] ?? rule.origin.line
    const what = signals.length === 0 ? 'ingest keeps no signal from it (docs/signals.md says which lines are signals)' : `its signal reads "${signals[0]!.text}", which the pattern does not match`
    return [{file: rule.origin.file, line, message: `rule ${rule.id}: example ${i + 1} is not classified by the rule: ${what}`}]
  })
}

const PRELUDE = [
  'INFO:guardkit.cli.autobuild:Starting orchestration for TASK-EXAMPLE-001 (resume=False)',
  'INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-EXAMPLE-001 (resume=False)',
  'INFO:guardkit.orchestrator.autobuild:Executing turn 1/3',
  'INFO:guardkit.orchestrator.quality_gates.coach_validator:Starting Coach validation for TASK-EXAMPLE-001 turn 1',
]

function signalsOfLine(line: string): Signal[] {
  const ingest = createLogIngest()
  ingest.startFile('example.log')
  // an example may be several physical lines (a traceback), joined by \n
  for (const l of [...PRELUDE, ...line.split('\n')]) ingest.push(l)
  const result = ingest.finish()
  return [
    ...result.attempts.flatMap((a) => a.signals ?? []),
    ...result.tasks.flatMap((t) => [...(t.signals ?? []), ...feedbackSignals(t)]),
  ]
}
