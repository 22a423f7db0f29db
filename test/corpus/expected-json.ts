import type {Report} from '../../src/render/json/report.js'

/**
 * The corpus's expected.json (the recorded outcome and per-turn criteria of every task of every corpus log)
 * compared with the `recorded` section of a report: test/corpus/expected.test.ts on `inspect --json`,
 * test/corpus/expectations.test.ts on `analyze --json`, whose recorded section must be the same.
 */
export interface ExpectedJsonTurn {
  turn: number
  met: number | null
  total: number | null
  state: 'v' | 'r' | 'p' | null
  decision: 'A' | 'F' | 'E' | '?'
}

export interface ExpectedJsonTask {
  attempt: string | null
  taskId: string
  mode: string | null
  outcome: string | null
  turns: number | null
  player: string
  seq: ExpectedJsonTurn[]
}

export type ExpectedJson = {logs: Record<string, Record<string, ExpectedJsonTask>>}

const DECISION: Record<string, ExpectedJsonTurn['decision']> = {approve: 'A', feedback: 'F', error: 'E'}
const PLAYER: Record<string, string> = {success: 's', error: 'e', feedback: 'f'}

function state(t: Report['tasks'][number]['recorded']['turns'][number]): ExpectedJsonTurn['state'] {
  if (t.criteriaMet === null || t.criteriaTotal === null) return null
  if (t.criteriaTotal > 0 && t.criteriaMet === t.criteriaTotal) return 'v'
  if ((t.rejected ?? 0) > 0) return 'r'
  if ((t.pending ?? 0) > 0) return 'p'
  return null
}

const fmt = (seq: readonly ExpectedJsonTurn[]): string => seq.map((s) => `${s.turn}:${s.met}/${s.total}${s.state ?? '-'}${s.decision}`).join(' ')

/** Every difference between the report's recorded facts and expected.json for one log, one line each. */
export function diffRecorded(log: string, report: Report, expected: Record<string, ExpectedJsonTask>): string[] {
  const diffs: string[] = []
  const seen = new Set<string>()
  for (const [key, e] of Object.entries(expected)) {
    const attempt = e.attempt === null ? 1 : Number(e.attempt.replace(/^A/, ''))
    seen.add(`${attempt} ${e.taskId}`)
    const t = report.tasks.find((x) => x.taskId === e.taskId && x.attempt === attempt)
    if (t === undefined) {
      diffs.push(`${log} ${key}: missing from the report`)
      continue
    }
    const r = t.recorded
    const got = r.turns.map((u) => ({turn: u.turn, met: u.criteriaMet, total: u.criteriaTotal, state: state(u), decision: DECISION[u.decision ?? ''] ?? '?'}))
    const mine: string[] = []
    if (r.outcome !== e.outcome) mine.push(`outcome: expected ${e.outcome}, found ${r.outcome}`)
    if ((r.turnCount ?? null) !== e.turns) mine.push(`turns: expected ${e.turns}, found ${r.turnCount}`)
    if (t.mode !== e.mode) mine.push(`mode: expected ${e.mode}, found ${t.mode}`)
    if (JSON.stringify(got) !== JSON.stringify(e.seq)) mine.push(`criteria sequence: expected ${fmt(e.seq)}, found ${fmt(got)}`)
    // expected.json's Player letters come from the summary table; '-' means the log printed none.
    const player = r.turns.map((u) => PLAYER[u.player ?? ''] ?? '-').join('')
    if (e.player !== '-' && player !== e.player) mine.push(`player: expected ${e.player}, found ${player}`)
    if (mine.length > 0) diffs.push(`${log} ${key}: ${mine.join('; ')}`)
  }
  for (const t of report.tasks) if (!seen.has(`${t.attempt} ${t.taskId}`)) diffs.push(`${log}: unexpected task ${t.taskId} (attempt ${t.attempt})`)
  return diffs
}
