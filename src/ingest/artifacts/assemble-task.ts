import type {Evidence} from '../../model/evidence.js'
import type {ArtifactVersion, TaskLevelArtifacts, TurnArtifacts} from '../../model/run-record.js'
import {isTurnNumber, type ArtifactKind} from './artifact-names.js'
import type {ArtifactFolder} from './read-worktree.js'

/** A task's artifact folder, sorted into turns. */
export interface ArtifactTask {
  readonly taskId: string
  readonly dir: string
  readonly worktree: string
  /** Turns with at least one per-turn file (damaged ones included: no artifacts then), ascending. */
  readonly turns: ReadonlyMap<number, TurnArtifacts>
  readonly taskLevel: TaskLevelArtifacts
  /** checkpoints.json entries, by turn (the last entry of a turn wins, as GuardKit appends). */
  readonly checkpoints: ReadonlyMap<number, CheckpointEntry>
  /** The highest turn any file names. */
  readonly lastTurn: number | null
}

export interface CheckpointEntry {
  readonly turn: number
  readonly hash: string
  readonly testsPassed: boolean | null
  readonly testCount: number | null
  readonly fromPriorRun: boolean | null
  readonly evidence: Evidence
}

const PER_TURN: ReadonlySet<ArtifactKind | null> = new Set<ArtifactKind>(['player_turn', 'coach_turn', 'coach_feedback_for_turn', 'coach_evidence_turn', 'work_state_turn', 'turn_state_turn'])

const EMPTY: TurnArtifacts = {playerReport: [], coachReport: null, taskWorkResults: [], feedbackFile: null, workState: null, coachEvidence: null, turnState: null}

/**
 * Files → turns. Single-file artifacts are GuardKit's last write: task_work_results.json belongs to
 * the folder's last turn. A `coach_feedback_for_turn_N.json` is filed under the turn whose Coach
 * gave it (`feedback_from_turn`, else N-1), beside that turn's coach report.
 */
export function assembleArtifactTask(folder: ArtifactFolder): ArtifactTask {
  const turns = new Map<number, TurnArtifacts>()
  const update = (turn: number, patch: Partial<TurnArtifacts>): void => {
    turns.set(turn, {...(turns.get(turn) ?? EMPTY), ...patch})
  }
  let checkpointsFile: ArtifactVersion | null = null
  let turnContext: ArtifactVersion | null = null
  let specialistResults: ArtifactVersion | null = null
  let stateTransitions: ArtifactVersion | null = null
  let phase4Summary: ArtifactVersion | null = null
  let taskWorkResults: readonly ArtifactVersion[] = []
  const others: ArtifactVersion[] = []
  for (const file of folder.files) {
    const latest = file.versions[file.versions.length - 1]!
    const t = file.turn
    switch (file.kind) {
      case 'player_turn':
        update(t!, {playerReport: file.versions})
        break
      case 'coach_turn':
        update(t!, {coachReport: latest})
        break
      case 'coach_feedback_for_turn': {
        const from = numberAt(latest.json, 'feedback_from_turn') ?? t! - 1
        if (isTurnNumber(from)) update(from, {feedbackFile: latest})
        else others.push(latest)
        break
      }
      case 'work_state_turn':
        update(t!, {workState: latest})
        break
      case 'coach_evidence_turn':
        update(t!, {coachEvidence: latest})
        break
      case 'turn_state_turn':
        update(t!, {turnState: latest})
        break
      case 'task_work_results':
        taskWorkResults = file.versions
        break
      case 'turn_context':
        turnContext = latest
        break
      case 'checkpoints':
        checkpointsFile = latest
        break
      case 'specialist_results':
        specialistResults = latest
        break
      case 'state_transitions':
        stateTransitions = latest
        break
      case 'phase_4_summary':
        phase4Summary = latest
        break
      default:
        others.push(...file.versions)
    }
  }
  // A damaged per-turn file is still evidence that its turn happened (its content is an ingest issue).
  for (const file of folder.damaged ?? []) {
    const t = file.kind === 'coach_feedback_for_turn' && file.turn !== null ? file.turn - 1 : file.turn
    if (t !== null && t >= 1 && PER_TURN.has(file.kind) && !turns.has(t)) turns.set(t, EMPTY)
  }
  const checkpoints = readCheckpoints(checkpointsFile)
  const turnNumbers = [...turns.keys(), ...[...checkpoints.values()].filter((c) => c.fromPriorRun !== true).map((c) => c.turn)]
  const context = turnContext ? numberAt(turnContext.json, 'turn') : null
  const contextTurn = isTurnNumber(context) ? context : null
  const lastTurn = turnNumbers.length > 0 ? Math.max(...turnNumbers) : contextTurn
  if (taskWorkResults.length > 0 && lastTurn !== null) update(lastTurn, {taskWorkResults})
  else if (taskWorkResults.length > 0) others.push(...taskWorkResults)
  const sorted = new Map([...turns.entries()].sort((a, b) => a[0] - b[0]))
  return {
    taskId: folder.taskId,
    dir: folder.dir,
    worktree: folder.worktree,
    turns: sorted,
    taskLevel: {checkpoints: checkpointsFile, turnContext, specialistResults, stateTransitions, phase4Summary, others},
    checkpoints,
    lastTurn,
  }
}

function readCheckpoints(file: ArtifactVersion | null): Map<number, CheckpointEntry> {
  const out = new Map<number, CheckpointEntry>()
  const list = file && isRecord(file.json) ? file.json['checkpoints'] : null
  if (!file || !Array.isArray(list)) return out
  list.forEach((c, i) => {
    if (!isRecord(c) || !isTurnNumber(c['turn']) || typeof c['commit_hash'] !== 'string') return
    out.set(c['turn'] as number, {
      turn: c['turn'] as number,
      hash: c['commit_hash'],
      testsPassed: typeof c['tests_passed'] === 'boolean' ? c['tests_passed'] : null,
      testCount: Number.isInteger(c['test_count']) ? (c['test_count'] as number) : null,
      fromPriorRun: typeof c['from_prior_run'] === 'boolean' ? c['from_prior_run'] : null,
      evidence: {file: file.file, pointer: `/checkpoints/${i}`},
    })
  })
  return out
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

export function numberAt(json: unknown, key: string): number | null {
  if (!isRecord(json)) return null
  const v = json[key]
  return typeof v === 'number' && Number.isInteger(v) ? v : null
}
