import type {AnalysisReport, TaskAnalysis} from '../explain/analysis.js'
import {describeBranches} from '../explain/branch-phrases.js'
import type {StallCell, StallTable} from '../explain/stall-table.js'
import type {TaskReplay} from '../replay/types.js'
import type {DashboardModel, ExplainView, StallView, TaskRowView, WarningView} from '../render/ink/model.js'
import type {TaskTiming} from './log-lines.js'
import {currentTurn, runningProfile, taskKey} from './warnings.js'

export interface ModelInput {
  readonly report: AnalysisReport | null
  readonly timing: (taskId: string) => TaskTiming | undefined
  readonly now: number
  readonly timeScale: number
  readonly startedAt: number
  readonly base: Pick<DashboardModel, 'title' | 'mode' | 'status' | 'recordDir' | 'worktree' | 'logTail' | 'notices' | 'exit'>
  readonly warnings: readonly WarningView[]
}

/** The live store's snapshot for the dashboard, from the analysis so far and the session clock. */
export function buildDashboardModel(input: ModelInput): DashboardModel {
  const report = input.report
  const seconds = (ms: number) => Math.max(0, (ms * input.timeScale) / 1000)
  const tasks: TaskRowView[] = []
  const stall: Record<string, StallView> = {}
  const explain: Record<string, ExplainView> = {}
  const running = report ? runningProfile(report) : 'legacy'
  for (const analysis of report?.tasks ?? []) {
    // a task folder not (yet) paired with the log's run of the same task: shown once the log has no such run
    if (analysis.task.sources?.log === false && report!.tasks.some((t) => t.task.taskId === analysis.task.taskId && t.task.sources?.log !== false)) continue
    const key = taskKey(analysis.task)
    // an earlier attempt of the same task has its times in the log only; the output's clock is the latest attempt's
    const latest = report!.tasks.filter((t) => t.task.taskId === analysis.task.taskId).at(-1) === analysis
    const timing = latest ? input.timing(analysis.task.taskId) : undefined
    tasks.push(taskRow(analysis, report!, timing, (ms) => seconds(ms), input.now, input.warnings.filter((w) => w.key === key).length))
    if (analysis.explain) stall[key] = stallView(analysis.explain.stall, running, analysis.replays.fixed?.outcome ?? null)
    explain[key] = {
      happened: analysis.verdict.happened,
      why: analysis.verdict.why,
      findings: analysis.findings.map((f) => ({code: f.code, severity: f.severity, turns: f.turns, message: f.message})),
      doNow: analysis.verdict.doNow,
    }
  }
  return {...input.base, elapsedSeconds: seconds(input.now - input.startedAt), tasks, stall, explain, warnings: input.warnings, runningProfile: running}
}

function taskRow(analysis: TaskAnalysis, report: AnalysisReport, timing: TaskTiming | undefined, seconds: (ms: number) => number, now: number, warnings: number): TaskRowView {
  const task = analysis.task
  const turn = currentTurn(task, timing)
  const record = task.turns.find((t) => t.turn === turn)
  const outcome = task.outcome?.value ?? null
  const phase = outcome ?? (record === undefined ? (turn === null ? 'starting' : 'player') : record.coach.decision ? 'waiting' : record.player.status ? 'coach' : 'player')
  const judged = task.turns.filter((t) => t.coach.criteriaMet !== null).at(-1)
  const attempt = report.run.attempts.find((a) => a.attempt === task.attempt)
  const end = timing?.endedAt ?? now
  return {
    key: taskKey(task),
    taskId: task.taskId,
    attempt: task.attempt,
    phase,
    done: outcome !== null,
    ok: outcome === null ? null : outcome === 'approved',
    turn,
    maxTurns: task.maxTurns?.value ?? attempt?.settings.maxTurns?.value ?? null,
    criteriaMet: judged?.coach.criteriaMet?.value ?? null,
    criteriaTotal: judged?.coach.criteriaTotal?.value ?? task.criteria?.texts.length ?? null,
    elapsedSeconds: timing ? seconds(end - timing.startedAt) : null,
    timeoutSeconds: attempt?.settings.taskTimeoutSeconds?.value ?? null,
    warnings,
  }
}

function stallView(table: StallTable, running: string, fixedOutcome: TaskReplay['outcome'] | null): StallView {
  const rows = table.rows.map((r) => {
    const cell = r.recorded.check ?? r.profiles[running] ?? null
    const fixed = r.profiles.fixed ?? null
    return {
      turn: r.turn,
      feedback: firstLine(r.recorded.feedback),
      raw: cell?.rawSignature ?? null,
      normalised: cell?.normalisedSignature ?? fixed?.normalisedSignature ?? null,
      running: cell ? {signature: cell.signature, count: cell.count} : null,
      fixed: fixed ? {signature: fixed.signature, count: fixed.count} : null,
    }
  })
  const firedRunning = table.firedAt.recorded ?? table.firedAt[running] ?? null
  const firedFixed = table.firedAt.fixed ?? null
  const cells = (pick: (r: StallTable['rows'][number]) => StallCell | null) => table.rows.map(pick).filter((c): c is StallCell => c !== null && c.signature !== null)
  return {
    threshold: table.threshold,
    rows,
    remainingRunning: firedRunning !== null ? 0 : remaining(cells((r) => r.recorded.check ?? r.profiles[running] ?? null), table.threshold),
    remainingFixed: firedFixed !== null ? 0 : remaining(cells((r) => r.profiles.fixed ?? null), table.threshold),
    firedRunning,
    firedFixed,
    endedFixed: firedFixed === null && fixedOutcome?.kind === 'replayed' ? `${fixedOutcome.outcome} at turn ${fixedOutcome.turn}` : null,
    fixedBranches: fixedOutcome?.kind === 'branches' ? describeBranches(fixedOutcome.branches) : null,
  }
}

/** Identical turns still needed: the threshold less the trailing run of one signature and count. */
function remaining(cells: readonly StallCell[], threshold: number): number | null {
  const last = cells.at(-1)
  if (last === undefined) return null
  let run = 0
  for (let i = cells.length - 1; i >= 0 && cells[i]!.signature === last.signature && cells[i]!.count === last.count; i--) run++
  return Math.max(1, threshold - run)
}

function firstLine(text: string | null): string | null {
  if (text === null) return null
  const line = text.split('\n').find((l) => l.trim() !== '') ?? ''
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}
