import {join} from 'node:path'
import type {FamilyInput} from '../../../src/explain/draft.js'
import type {Evidence, Fact} from '../../../src/model/evidence.js'
import type {CoachTurn, PlayerTurn, RunRecord, TaskRun, TurnArtifacts, TurnRecord} from '../../../src/model/run-record.js'
import {inferEra} from '../../../src/replay/era.js'
import {emptyTurnDetail, type EraInference, type ReplayedTurn, type ReplayOutcome, type TaskReplay, type TurnDetail} from '../../../src/replay/types.js'
import {loadRun} from '../../../src/services/load-run.js'

export const FIXTURES = join(import.meta.dirname, '../../../fixtures/runs')

const loaded = new Map<string, Promise<RunRecord>>()

/** A RUN read through the load-run service, once per test file. */
export function loadFixture(name: string): Promise<RunRecord> {
  const path = name.startsWith('/') ? name : join(FIXTURES, name)
  if (!loaded.has(path)) loaded.set(path, loadRun(path))
  return loaded.get(path)!
}

export function taskOf(run: RunRecord, taskId: string, attempt = 1): TaskRun {
  const t = run.tasks.find((x) => x.taskId === taskId && x.attempt === attempt)
  if (!t) throw new Error(`no ${taskId} attempt ${attempt} in ${run.path}`)
  return t
}

/** The family input for one task of a loaded run, with the run's own era and optional replays. */
export function familyInput(run: RunRecord, task: TaskRun, replays: Record<string, TaskReplay> = {}, era: EraInference = inferEra(run)): FamilyInput {
  return {run, task, replays, era, asRun: era.modelled ? era.profile : null}
}

// ---- hand-built records ------------------------------------------------------------------------

export const ev = (line: number, file = 'run.log'): Evidence => ({file, line})
export const fact = <T>(value: T, line = 1): Fact<T> => ({value, evidence: [ev(line)]})

const NO_ARTIFACTS: TurnArtifacts = {playerReport: [], coachReport: null, taskWorkResults: [], feedbackFile: null, workState: null, coachEvidence: null, turnState: null}
const NO_PLAYER: PlayerTurn = {status: null, error: null, filesCreated: null, filesModified: null, toolInputKeys: null, reportSource: null, promisesRecovered: null, sdkTurns: null}
const NO_COACH: CoachTurn = {
  decision: null, criteriaMet: null, criteriaTotal: null, verified: null, rejected: null, pending: null, feedback: null, gates: null, testCommand: null,
  independentTests: null, diagnosticDump: null, missingCriteria: null, issueCategories: null, zeroTestAnomaly: null,
}

export function turn(n: number, parts: {player?: Partial<PlayerTurn>; coach?: Partial<CoachTurn>; artifacts?: Partial<TurnArtifacts>} & Partial<Omit<TurnRecord, 'player' | 'coach' | 'artifacts'>> = {}): TurnRecord {
  const {player, coach, artifacts, ...rest} = parts
  return {
    turn: n, stateRecovery: null, checkpoint: null, perspectiveReset: null, startedAt: null, endedAt: null,
    ...rest,
    player: {...NO_PLAYER, ...player},
    coach: {...NO_COACH, ...coach},
    artifacts: {...NO_ARTIFACTS, ...artifacts},
  }
}

/** A feedback turn: decision feedback, `met/total` criteria, the feedback text in full. */
export function feedbackTurn(n: number, text: string, met = 0, total = 4, extra: Parameters<typeof turn>[1] = {}): TurnRecord {
  const t = turn(n, extra)
  return {
    ...t,
    coach: {
      ...t.coach,
      decision: fact('feedback' as const, n * 10),
      criteriaMet: fact(met, n * 10 + 1),
      criteriaTotal: fact(total, n * 10 + 1),
      feedback: {text, completeness: 'full', truncatedAt: null, evidence: [ev(n * 10 + 2)]},
      ...extra.coach,
    },
  }
}

export function taskRun(parts: Partial<TaskRun> = {}): TaskRun {
  const turns = parts.turns ?? []
  return {
    taskId: 'TASK-X-001', attempt: 1, featureId: null, mode: null, taskType: null, complexity: null, maxTurns: null,
    outcome: null, turnCount: fact(turns.length), turns, stall: null, events: [], criteria: null, taskFile: null, artifactDir: null, summary: null,
    ...parts,
  }
}

export function runRecord(tasks: TaskRun[], parts: Partial<RunRecord> = {}): RunRecord {
  return {path: 'RUN', logs: ['run.log'], worktrees: [], attempts: [], tasks, feature: null, eraMarkers: [], ingestIssues: [], loggerStats: [], ...parts}
}

export const UNKNOWN_ERA: EraInference = {profile: null, window: {from: null, to: null}, reason: 'no markers', confidence: 'low', evidence: [], modelled: true}

export function eraOf(profile: string | null, modelled = true): EraInference {
  return {...UNKNOWN_ERA, profile, modelled}
}

export function handInput(task: TaskRun, opts: {replays?: Record<string, TaskReplay>; era?: EraInference; run?: RunRecord} = {}): FamilyInput {
  const era = opts.era ?? UNKNOWN_ERA
  return {run: opts.run ?? runRecord([task]), task, replays: opts.replays ?? {}, era, asRun: era.modelled ? era.profile : null}
}

// ---- hand-built replays ------------------------------------------------------------------------

export function replayedTurn(n: number, parts: Partial<Omit<ReplayedTurn, 'detail'>> & {detail?: Partial<TurnDetail>} = {}): ReplayedTurn {
  const {detail, ...rest} = parts
  return {
    turn: n, decision: 'feedback', criteriaMet: 0, criteriaTotal: 4, feedback: null, feedbackBasis: 'full', signature: null, stall: null,
    fidelity: 'exact', confidence: 'recorded', missingInputs: [], assumptions: [], diverges: false, logs: [],
    ...rest,
    detail: {...emptyTurnDetail(), ...detail},
  }
}

export function taskReplay(profile: string, outcome: ReplayOutcome, turns: ReplayedTurn[], stallTurn: number | null = null): TaskReplay {
  return {profile, outcome, stallTurn, turns, missingInputs: []}
}
