import {isValidPathSeed} from '../../logic/pipeline/file-paths.js'
import type {Evidence} from '../../model/evidence.js'
import type {ArtifactVersion} from '../../model/run-record.js'
import {draft, fixedBy, formatTurns, plural, type FamilyInput, type FindingDraft} from '../draft.js'
import {turnPromises} from '../promises.js'
import {flagsOfProfile} from '../recorded-stall.js'
import {artifactEvidence, asObject, hasKey, playerReport, stringList, taskWorkResultsByTurn} from '../record-facts.js'
import {detectSyntheticFindings} from './synthetic.js'

/**
 * The Player→Coach data pipeline (docs/guardkit-logic.md §4, seed 000): what the Player's side wrote and what reached
 * the Coach. Every rule reads recorded artifacts or log records; a fact the records do not hold (an
 * agent report nobody kept) gives no finding.
 */
export function detectPipelineFindings(input: FamilyInput): FindingDraft[] {
  return [
    ...fileTrackingKeyMismatch(input),
    ...agentPromisesOverwritten(input),
    ...resultsNotEnriched(input),
    ...spuriousFileEntries(input),
    ...taskIdMissing(input),
    ...detectSyntheticFindings(input),
  ]
}

const PATH_KEYS = ['file_path', 'path', 'file', 'filePath']

/**
 * FILE_TRACKING_KEY_MISMATCH: a logged Write/Edit input without a key the parser reads (certain).
 * The `input keys` record (D2) and the four-key lookup (D1) landed together in 723e5f4e, so a run
 * that logs keys reads all four; legacy logs none, and then the question cannot be settled.
 */
function fileTrackingKeyMismatch(input: FamilyInput): FindingDraft[] {
  const hits: {turn: number; keys: readonly string[]; evidence: readonly Evidence[]}[] = []
  for (const t of input.task.turns) {
    const lists = t.player.toolInputKeys
    if (!lists) continue
    for (const keys of lists.value) {
      if (!keys.some((k) => PATH_KEYS.includes(k))) hits.push({turn: t.turn, keys, evidence: lists.evidence})
    }
  }
  if (hits.length === 0) return []
  const turns = hits.map((h) => h.turn)
  return [
    draft(input, {
      code: 'FILE_TRACKING_KEY_MISMATCH',
      severity: 'high',
      turns,
      message: `On ${formatTurns(turns)} a Write/Edit tool call named its file under keys the stream parser does not read (${JSON.stringify(hits[0]!.keys)}), so that file was not tracked in task_work_results.json.`,
      evidence: hits.flatMap((h) => h.evidence),
      remediation: 'Check the Claude Code SDK version the Player ran with and report the key names to GuardKit: no version reads them (723e5f4e+ reads file_path, path, file, filePath).',
      fixedIn: null,
      source: {function: 'TaskWorkStreamParser._track_tool_call', spec: '§4.1'},
      detail: {calls: hits.map((h) => ({turn: h.turn, keys: h.keys}))},
    }),
  ]
}

/** AGENT_PROMISES_OVERWRITTEN: a kept agent version of player_turn_N.json had promises, the final one none (certain). */
function agentPromisesOverwritten(input: FamilyInput): FindingDraft[] {
  const hits = input.task.turns.map((t) => turnPromises(input.task, t)).filter((p) => p.agent !== null && (p.seen === null || p.seen.length === 0))
  if (hits.length === 0) return []
  const turns = hits.map((h) => h.turn)
  const n = hits[0]!.agent!.length
  return [
    draft(input, {
      code: 'AGENT_PROMISES_OVERWRITTEN',
      severity: 'high',
      turns,
      message: `On ${formatTurns(turns)} the agent wrote player_turn_N.json with ${plural(n, 'completion promise')}, and the invoker replaced the file with its own report without them, so the Coach never saw the agent's claims.`,
      evidence: hits.flatMap((h) => [...h.agentEvidence, ...h.seenEvidence]),
      remediation: 'Upgrade GuardKit to 723e5f4e+ (agent promises recovered and written back); on this version the Coach can only verify criteria by text, so rerunning will not help.',
      fixedIn: fixedBy('recoverAgentPromises', 'writeBackResults'),
      source: {function: 'AgentInvoker._create_player_report_from_task_work', spec: '§4.4 (D9)'},
      detail: {turns: hits.map((h) => ({turn: h.turn, agentPromises: h.agent!.length, seenPromises: h.seen?.length ?? null}))},
    }),
  ]
}

function fileCount(json: Record<string, unknown>): number {
  return stringList(json['files_created']).length + stringList(json['files_modified']).length
}

/** RESULTS_NOT_ENRICHED: task_work_results.json holds fewer files or promises than that turn's player report (certain). */
function resultsNotEnriched(input: FamilyInput): FindingDraft[] {
  const twrByTurn = taskWorkResultsByTurn(input.task)
  const hits: {turn: number; report: number; twr: number; promises: boolean; evidence: Evidence[]}[] = []
  for (const t of input.task.turns) {
    const {final} = playerReport(t)
    const twr = twrByTurn.get(t.turn)
    const r = asObject(final?.json)
    const w = asObject(twr?.json)
    if (!final || !twr || !r || !w) continue
    const promises = (Array.isArray(r['completion_promises']) && r['completion_promises'].length > 0) && !(Array.isArray(w['completion_promises']) && w['completion_promises'].length > 0)
    if (fileCount(w) < fileCount(r) || promises) {
      hits.push({turn: t.turn, report: fileCount(r), twr: fileCount(w), promises, evidence: [artifactEvidence(twr, '/files_modified'), artifactEvidence(twr, '/files_created'), artifactEvidence(final, '/files_modified')]})
    }
  }
  if (hits.length === 0) return []
  const turns = hits.map((h) => h.turn)
  const h = hits[0]!
  return [
    draft(input, {
      code: 'RESULTS_NOT_ENRICHED',
      severity: 'medium',
      turns,
      message: `On ${formatTurns(turns)} task_work_results.json, which the Coach reads first, listed ${h.twr} files${h.promises ? ' and no promises' : ''} while that turn's player report listed ${h.report}${h.promises ? ' and carried promises' : ''}: the enriched report never reached the Coach's test detection and gates.`,
      evidence: hits.flatMap((x) => x.evidence),
      remediation: 'Upgrade GuardKit to 723e5f4e+ (the enriched lists and promises are written back); until then, judge test detection from player_turn_N.json, not task_work_results.json.',
      fixedIn: fixedBy('writeBackResults'),
      source: {function: 'AgentInvoker._create_player_report_from_task_work', spec: '§4.4 (D11)'},
      detail: {turns: hits.map((x) => ({turn: x.turn, reportFiles: x.report, resultsFiles: x.twr, promisesMissing: x.promises}))},
    }),
  ]
}

/** A file-list entry no file can be: a wildcard, a blank, or a bare lower-case word (`**Files Created:** house`). */
export function isSpuriousEntry(entry: string): boolean {
  return !isValidPathSeed(entry) || /^[a-z]{1,16}$/.test(entry)
}

/** SPURIOUS_FILE_ENTRIES: `**`, `*`, blanks or bare words in a recorded file list (certain). */
function spuriousFileEntries(input: FamilyInput): FindingDraft[] {
  const twrByTurn = taskWorkResultsByTurn(input.task)
  const hits: {turn: number; entries: string[]; evidence: Evidence[]}[] = []
  for (const t of input.task.turns) {
    const versions: ArtifactVersion[] = [...t.artifacts.playerReport.slice(-1), ...(twrByTurn.has(t.turn) ? [twrByTurn.get(t.turn)!] : [])]
    const entries = new Set<string>()
    const evidence: Evidence[] = []
    for (const v of versions) {
      const json = asObject(v.json)
      for (const key of ['files_created', 'files_modified', 'tests_written']) {
        const bad = stringList(json?.[key]).filter(isSpuriousEntry)
        if (bad.length === 0) continue
        bad.forEach((b) => entries.add(b))
        evidence.push(artifactEvidence(v, `/${key}`))
      }
    }
    if (entries.size > 0) hits.push({turn: t.turn, entries: [...entries], evidence})
  }
  if (hits.length === 0) return []
  const turns = hits.map((h) => h.turn)
  const all = [...new Set(hits.flatMap((h) => h.entries))]
  return [
    draft(input, {
      code: 'SPURIOUS_FILE_ENTRIES',
      severity: 'low',
      turns,
      message: `The file lists of ${formatTurns(turns)} hold entries that are not files (${all.slice(0, 4).map((e) => JSON.stringify(e)).join(', ')}), captured from the Player's markdown (e.g. "**Files Created:**").`,
      evidence: hits.flatMap((h) => h.evidence),
      remediation: 'Harmless to the verdict by itself; ignore these entries when reading file counts. GuardKit b2fee34d+ validates paths before keeping them.',
      fixedIn: fixedBy('filesPatternStrict', 'validFilePath', 'writerPathFilter'),
      source: {function: 'TaskWorkStreamParser.parse_message / AgentInvoker._create_player_report_from_task_work', spec: '§4.1, §4.4 (D3, D4, D7)'},
      detail: {turns: hits.map((h) => ({turn: h.turn, entries: h.entries}))},
    }),
  ]
}

/** TASK_ID_MISSING_IN_RESULTS: task_work_results.json with an empty task_id, before the Coach fell back to its own (certain). */
function taskIdMissing(input: FamilyInput): FindingDraft[] {
  if (flagsOfProfile(input.asRun).promiseTaskIdFallback) return []
  const hits: {turn: number; evidence: Evidence}[] = []
  for (const [turn, v] of taskWorkResultsByTurn(input.task)) {
    const json = asObject(v.json)
    if (!json || (hasKey(json, 'error'))) continue
    const id = json['task_id']
    if (id === '' || id === null || (!hasKey(json, 'task_id') && hasKey(json, 'completed'))) hits.push({turn, evidence: artifactEvidence(v, '/task_id')})
  }
  if (hits.length === 0) return []
  const turns = hits.map((h) => h.turn)
  return [
    draft(input, {
      code: 'TASK_ID_MISSING_IN_RESULTS',
      severity: 'medium',
      turns,
      message: `task_work_results.json of ${formatTurns(turns)} has no task_id, so the Coach could not locate player_turn_N.json to load completion promises from it.`,
      evidence: hits.map((h) => h.evidence),
      remediation: 'Upgrade GuardKit to edb5fd18+ (the Coach falls back to its own task id); the promises in player_turn_N.json are otherwise ignored.',
      fixedIn: fixedBy('promiseTaskIdFallback'),
      source: {function: 'CoachValidator._load_completion_promises', spec: '§7.3 (D26)'},
    }),
  ]
}
