import {existsSync, readFileSync, readdirSync} from 'node:fs'
import {loadRun} from '../../src/services/load-run.js'
import {checkLabels, checkOutcomeRecords, eraLabel, type Label, type LogCheck, locateOutcomeRecords, type OutcomeRecord} from './outcome-check.js'

/** The two sets of real logs: `logs/` (expected.json) and `diagnoses/logs/` (outcomes.json, labels.json). */
export const LOG_SETS = ['logs', 'diagnoses/logs'] as const

interface OutcomesFile {
  readonly logs: Readonly<Record<string, readonly (readonly [string, string, number])[]>>
}

/** Reads every log of the shared corpus at `corpus` and checks its outcomes and labels (outcome-check.ts). */
export async function checkCorpus(corpus: string): Promise<LogCheck[]> {
  const outcomes = JSON.parse(readFileSync(`${corpus}/diagnoses/outcomes.json`, 'utf8')) as OutcomesFile
  const labels = JSON.parse(readFileSync(`${corpus}/diagnoses/labels.json`, 'utf8')) as Label[]
  const checks: LogCheck[] = []
  for (const set of LOG_SETS) {
    const dir = `${corpus}/${set}`
    if (!existsSync(dir)) continue
    for (const log of readdirSync(dir).filter((f) => f.endsWith('.log')).sort()) {
      const path = `${dir}/${log}`
      // loadRun, not loadRunContent: a file the ingest does not take for a capture is checked too (outcome-check.ts)
      const run = await loadRun(path)
      const listed = set === 'diagnoses/logs' ? outcomes.logs[log] ?? [] : null
      const expected: OutcomeRecord[] | null = listed === null ? null : listed.map(([taskId, outcome, turns]) => ({taskId, outcome, turns}))
      const located = locateOutcomeRecords(readFileSync(path, 'utf8'))
      const corpusLog = `${set === 'logs' ? 'logs' : 'diagnoses/logs'}/${log}`
      checks.push({
        log: corpusLog,
        era: eraLabel(run),
        outcomes: checkOutcomeRecords(corpusLog, located, expected, run),
        labels: checkLabels(corpusLog, labels.filter((l) => l.corpusLog === corpusLog), run),
      })
    }
  }
  return checks
}
