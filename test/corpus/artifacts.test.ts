import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {cp, mkdtemp, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import type {ArtifactVersion, RunRecord, TaskRun} from '../../src/model/run-record.js'
import {hashTree, ingestPath} from '../helpers/run-helpers.js'

// The real artifact sets of ../shared/corpus (read in place, never written; a hash shows it).
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url))
const SETS = join(CORPUS, 'artifacts')

interface Source {
  readonly run: string
  readonly files: readonly {readonly staged: string; readonly bytes: number}[]
}

async function source(set: string): Promise<Source> {
  return JSON.parse(await readFile(join(SETS, set, 'SOURCE.json'), 'utf8')) as Source
}

/** Every raw artifact the record keeps, by file. */
function keptFiles(record: RunRecord): Set<string> {
  const out = new Set<string>()
  const add = (v: ArtifactVersion | null | undefined): void => {
    if (v) out.add(v.file)
  }
  for (const t of record.tasks) {
    for (const turn of t.turns) {
      const a = turn.artifacts
      for (const v of [...a.playerReport, ...a.taskWorkResults, a.coachReport, a.feedbackFile, a.workState, a.coachEvidence, a.turnState]) add(v)
    }
    const l = t.taskArtifacts
    for (const v of [l?.checkpoints, l?.turnContext, l?.specialistResults, l?.stateTransitions, l?.phase4Summary, ...(l?.others ?? [])]) add(v)
  }
  return out
}

const issueKeys = (record: RunRecord, exceptFile?: string): string[] =>
  record.ingestIssues.filter((i) => i.file !== exceptFile).map((i) => `${i.code} ${i.file}${i.pointer === undefined ? '' : ` ${i.pointer}`}`)

// What each set alone must give: its task runs (turns) and exactly these issues, each a documented fact of the data.
const ALONE: Record<string, {tasks: Record<string, number>; issues: string[]}> = {
  '9dde-run2-retro': {tasks: {'TASK-TSJ-001': 3}, issues: []},
  'ac1a-run1-attempt1-inputs': {tasks: {}, issues: []},
  'ac1a-run1-attempt3-inputs': {tasks: {}, issues: []},
  'ac1a-run4-partial': {
    tasks: {'TASK-SFT-001': 1, 'TASK-SFT-003': 1, 'TASK-SFT-004': 1, 'TASK-SFT-006': 2, 'TASK-SFT-009': 3},
    // the feature file describes another run of SFT-001 (docs/record-formats.md §6.8)
    issues: ['stale-record .guardkit/features/FEAT-AC1A.yaml /tasks/0/result'],
  },
  'aof-run-14': {tasks: {'TASK-FIX-IA03': 2}, issues: ['stale-record .guardkit/features/FEAT-AOF.yaml /tasks/0/result']},
  'aof-run-24-synthetic': {
    tasks: {'TASK-FIX-IA03': 1},
    issues: ['task-file-fallback tasks/completed/TASK-FIX-IA03/TASK-FIX-IA03.md', 'stale-record .guardkit/features/FEAT-AOF.yaml /tasks/0/result'],
  },
  'aof-run-25': {
    tasks: {'TASK-FIX-GD02': 1, 'TASK-FIX-IA03': 1, 'TASK-FIX-TP05': 1},
    issues: [
      'stale-record .guardkit/features/FEAT-AOF.yaml /tasks/1/result',
      'task-file-fallback tasks/completed/TASK-FIX-IA03/TASK-FIX-IA03.md',
      'stale-record .guardkit/features/FEAT-AOF.yaml /tasks/0/result',
      'stale-record .guardkit/features/FEAT-AOF.yaml /tasks/2/result',
    ],
  },
  'feat-gi': {tasks: {'TASK-GI-001': 2, 'TASK-GI-002': 5, 'TASK-GI-003': 2, 'TASK-GI-004': 4, 'TASK-GI-005': 1, 'TASK-GI-006': 1, 'TASK-GI-007': 4}, issues: []},
  'gr-mvp-build-1': {
    tasks: {'TASK-GR-PRE-000-A': 1, 'TASK-GR-PRE-000-B': 6, 'TASK-GR-PRE-000-C': 1, 'TASK-GR-PRE-001-A': 3, 'TASK-GR-PRE-001-B': 2, 'TASK-GR-PRE-002-A': 1, 'TASK-GR-PRE-002-B': 1, 'TASK-GR-PRE-003-A': 25},
    issues: [],
  },
  'harv-2026-06-26': {
    tasks: {'TASK-HARV-002': 5, 'TASK-HARV-004': 5},
    issues: ['stale-record .guardkit/features/FEAT-HARV.yaml /tasks/0/result', 'stale-record .guardkit/features/FEAT-HARV.yaml /tasks/2/result'],
  },
}

describe.each(Object.keys(ALONE))('corpus artifact set %s, read alone', (set) => {
  let record: RunRecord
  let before: string
  beforeAll(async () => {
    before = await hashTree(join(SETS, set))
    record = await ingestPath(join(SETS, set))
  })

  it('gives the expected task runs and only the expected issues', () => {
    const expected = ALONE[set]!
    expect(Object.fromEntries(record.tasks.map((t) => [t.taskId, t.turns.length]))).toEqual(expected.tasks)
    expect(issueKeys(record)).toEqual(expected.issues)
  })

  it('keeps every staged autobuild file as a raw artifact (SOURCE.json lists them)', async () => {
    const staged = (await source(set)).files.map((f) => f.staged).filter((f) => f.startsWith('.guardkit/autobuild/'))
    const kept = keptFiles(record)
    expect(staged.filter((f) => !kept.has(f))).toEqual([])
  })

  it('reads every artifact in a known era', () => {
    const unknown = [...keptFiles(record)].filter((f) => record.tasks.some((t) => t.taskArtifacts?.others.some((o) => o.file === f && o.schema === 'unknown')))
    expect(unknown).toEqual([])
    expect(record.eraMarkers.length).toBeGreaterThan(set.includes('inputs') ? -1 : 0)
  })

  it('every turn value has evidence pointing into a staged file', async () => {
    const staged = new Set((await source(set)).files.map((f) => f.staged))
    for (const t of record.tasks) {
      for (const turn of t.turns) {
        for (const fact of [turn.coach.decision, turn.coach.criteriaMet, turn.checkpoint, turn.player.status]) {
          for (const e of fact?.evidence ?? []) expect(staged).toContain(e.file)
        }
      }
    }
  })

  it('leaves the set unchanged', async () => {
    expect(await hashTree(join(SETS, set))).toBe(before)
  })
})

// Sets whose run log is in the corpus (SOURCE.json names the run; the README of aof-* names the log).
const PAIRS: [set: string, log: string, issues: string[]][] = [
  ['feat-gi', 'FEAT-GI.log', []],
  ['gr-mvp-build-1', 'mvp_build_1.log', []],
  ['aof-run-14', 'autobuild-FEAT-AOF-run-14.log', []],
  ['aof-run-25', 'autobuild-FEAT-AOF-run-25.log', ['task-file-fallback tasks/completed/TASK-FIX-IA03/TASK-FIX-IA03.md']],
  ['aof-run-24-synthetic', 'autobuild-FEAT-AOF-run-24.log', ['task-file-fallback tasks/completed/TASK-FIX-IA03/TASK-FIX-IA03.md']],
]

interface ExpectedTask {
  readonly outcome: string
  readonly turns: number
  readonly seq: readonly {readonly turn: number; readonly decision: 'A' | 'F' | 'E' | '?'}[]
}

describe.each(PAIRS)('corpus artifact set %s with its log %s', (set, log, expectedIssues) => {
  let root: string
  let record: RunRecord
  let expected: Record<string, ExpectedTask>
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'gkr-corpus-'))
    await cp(join(SETS, set), root, {recursive: true})
    await cp(join(CORPUS, 'logs', log), join(root, log))
    record = await ingestPath(root)
    expected = (JSON.parse(await readFile(join(CORPUS, 'expected.json'), 'utf8')) as {logs: Record<string, Record<string, ExpectedTask>>}).logs[log]!
  })
  afterAll(async () => {
    await rm(root, {recursive: true, force: true})
  })

  it('pairs every artifact folder with the log\'s run of its task, and reports no conflict', () => {
    expect(issueKeys(record, log)).toEqual(expectedIssues)
    expect(record.ingestIssues.filter((i) => i.severity === 'error')).toEqual([])
    const folders = new Set(record.tasks.filter((t) => t.sources?.artifacts).map((t) => t.taskId))
    expect(record.tasks.every((t) => t.sources?.log)).toBe(true)
    expect(folders.size).toBe(record.tasks.filter((t) => t.artifactDir !== null).length)
  })

  it('has the log\'s tasks and turn counts (expected.json), with the artifacts\' turns matching them', () => {
    expect(Object.fromEntries(record.tasks.map((t) => [t.taskId, t.turns.length]))).toEqual(Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, v.turns])))
    for (const t of record.tasks) {
      const art = artifactTurns(t)
      expect(Math.max(...art), t.taskId).toBeLessThanOrEqual(expected[t.taskId]!.turns)
      expect(t.outcome?.value, t.taskId).toBe(expected[t.taskId]!.outcome)
    }
  })

  it('the Coach decision of every turn agrees between the log (expected.json) and coach_turn_N.json, with both as evidence', () => {
    const letter = {approve: 'A', feedback: 'F', error: 'E'} as const
    for (const t of record.tasks) {
      for (const step of expected[t.taskId]!.seq) {
        const turn = t.turns.find((u) => u.turn === step.turn)!
        const report = turn.artifacts.coachReport
        if (report) {
          expect(letter[(report.json as {decision: 'approve' | 'feedback'}).decision], `${t.taskId} turn ${step.turn}`).toBe(step.decision)
          expect(turn.coach.decision?.evidence.map((e) => e.file)).toEqual([report.file, log])
        } else if (step.decision !== '?') {
          expect(letter[turn.coach.decision!.value], `${t.taskId} turn ${step.turn}`).toBe(step.decision)
        }
      }
    }
  })

  it('the checkpoint of every turn the log records is the artifacts\' full commit id', async () => {
    const commit = (JSON.parse(await readFile(join(SETS, set, 'SOURCE.json'), 'utf8')) as {commit: string}).commit
    let compared = 0
    for (const t of record.tasks) {
      for (const turn of t.turns) {
        const cp = turn.checkpoint
        if (!cp) continue
        const [first, ...rest] = cp.evidence.map((e) => e.file)
        if (first !== `.guardkit/autobuild/${t.taskId}/checkpoints.json`) {
          // a checkpoint only the log has is the commit that staged the folder (SOURCE.json): taken after the copy
          expect(commit.startsWith(cp.value.hash!), `${t.taskId} turn ${turn.turn}`).toBe(true)
          continue
        }
        compared++
        expect(cp.value.hash).toMatch(/^[0-9a-f]{40}$/)
        expect(new Set(rest)).toEqual(new Set([log]))
      }
    }
    expect(compared).toBeGreaterThan(set === 'aof-run-24-synthetic' ? -1 : 0)
  })
})

function artifactTurns(t: TaskRun): number[] {
  return t.turns.filter((u) => Object.values(u.artifacts).some((v) => (Array.isArray(v) ? v.length > 0 : v !== null))).map((u) => u.turn).concat(0)
}

// The inputs of run_1.log's attempts (task files and feature file at the attempt's commit): no artifacts, only context.
// Each task file's autobuild_state is the state of the attempt its commit followed: attempt 1's inputs hold
// TASK-SFT-001's 8 turns (attempt 1), attempt 3's inputs TASK-SFT-002's 3 turns (attempt 3). The log's other run of
// that task does not fit it and gets the one note (docs/ingest.md); the run it fits keeps it.
const OTHER_RUN: Record<string, {taskId: string; file: string; keptBy: number; droppedFor: number}> = {
  'ac1a-run1-attempt1-inputs': {taskId: 'TASK-SFT-001', file: 'tasks/backlog/seam-first-testing/TASK-SFT-001-scaffolding.md', keptBy: 1, droppedFor: 3},
  'ac1a-run1-attempt3-inputs': {taskId: 'TASK-SFT-002', file: 'tasks/backlog/seam-first-testing/TASK-SFT-002-adr.md', keptBy: 3, droppedFor: 1},
}

describe.each(['ac1a-run1-attempt1-inputs', 'ac1a-run1-attempt3-inputs'])('corpus input set %s with run_1.log', (set) => {
  let root: string
  let record: RunRecord
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'gkr-corpus-'))
    await cp(join(SETS, set), root, {recursive: true})
    await cp(join(CORPUS, 'logs', 'run_1.log'), join(root, 'run_1.log'))
    record = await ingestPath(root)
  })
  afterAll(async () => {
    await rm(root, {recursive: true, force: true})
  })

  it('gives every logged task its task file as GuardKit would have found it, and the run its feature file', () => {
    const other = OTHER_RUN[set]!
    expect(issueKeys(record, 'run_1.log')).toEqual([`conflict ${other.file}`])
    const state = (attempt: number) => record.tasks.find((t) => t.taskId === other.taskId && t.attempt === attempt)?.taskFile?.frontmatter['autobuild_state']
    expect(state(other.keptBy)).toBeDefined()
    expect(state(other.droppedFor)).toBeUndefined()
    expect(record.feature?.featureId).toBe('FEAT-AC1A')
    expect(record.tasks.length).toBeGreaterThan(0)
    for (const t of record.tasks) {
      expect(t.sources).toEqual({log: true, artifacts: false})
      expect(t.taskFile?.file.startsWith(`tasks/backlog/seam-first-testing/${t.taskId}-`), t.taskId).toBe(true)
    }
  })
})
