import type {Report} from '../render/json/report.js'
import {BugError, UsageError} from '../shared/errors.js'
import type {RedactionHit, RedactionKind} from '../shared/redact.js'
import {feedbackEvidence, type VerdictDifference} from './record-verdicts.js'

/** A file of the recording before it is written: its bytes (redacted or not) and what redaction replaced. */
export interface PreparedFile {
  readonly path: string
  readonly bytes: Uint8Array
  readonly hits: readonly RedactionHit[]
  readonly role: 'log' | 'other' | 'version'
  readonly version?: {readonly path: string; readonly version: number; readonly seenAt: string | null; readonly note: string | null}
}

const KIND_NAMES: Record<RedactionKind, string> = {
  'home': 'a home directory', 'user': 'a user name', 'host': 'a host name', 'email': 'an e-mail address', 'api-key': 'an API key',
  'github-token': 'a GitHub token', 'aws-key': 'an AWS key', 'jwt': 'a JWT', 'bearer': 'a bearer token', 'password': 'a password',
  'secret': 'a secret', 'private-key': 'a private key', 'webhook': 'a webhook URL', 'word': 'a --redact-also word',
}

/** Redaction changed a verdict or a signature: say where, and what to do. Nothing is written. */
export function redactionRefusal(out: string, before: Report, differences: readonly VerdictDifference[], files: readonly PreparedFile[]): UsageError {
  const lines = [`Not recorded: redaction would change what replay finds, so nothing was written to ${out}.`]
  const signatures = new Map<string, {task: string; turn: number; changes: string[]}>()
  const others: VerdictDifference[] = []
  for (const d of differences) {
    if (d.task === null || d.turn === null || !/ignature$/.test(d.path)) {
      others.push(d)
      continue
    }
    const key = `${d.task}\0${d.turn}`
    const entry = signatures.get(key) ?? {task: d.task, turn: d.turn, changes: []}
    const which = d.path.endsWith('rawSignature') ? 'as sent' : d.path.endsWith('normalisedSignature') ? 'normalised' : `${d.profile}`
    const change = `${which} ${String(d.before)} → ${String(d.after)}`
    if (!entry.changes.includes(change)) entry.changes.push(change)
    signatures.set(key, entry)
  }
  for (const s of [...signatures.values()].slice(0, 8)) {
    lines.push(`  ${s.task}, turn ${s.turn}: the feedback's signature changes (${s.changes.join('; ')})`)
    for (const where of feedbackSources(before, s.task, s.turn, files)) lines.push(`    ${where}`)
  }
  if (signatures.size > 8) lines.push(`  … and ${signatures.size - 8} more turns`)
  for (const d of others.slice(0, 8)) lines.push(`  ${describeDifference(d)}`)
  if (others.length > 8) lines.push(`  … and ${others.length - 8} more differences`)
  lines.push(
    'A stall signature is the md5 of the whole feedback text, so a feedback holding a home directory, a user or host name or a secret hashes differently once redacted, and replay would no longer match the signatures the run logged.',
  )
  return new UsageError(lines.join('\n'), 'Record with --no-redact (the recording then keeps names and secrets: share it only where they may go), or remove them from RUN by hand and record again.')
}

/** Where a turn's feedback comes from: the record's evidence, and the turn's artifacts that redaction touched. */
function feedbackSources(before: Report, task: string, turn: number, files: readonly PreparedFile[]): string[] {
  const out: string[] = []
  for (const ev of feedbackEvidence(before, task, turn)) {
    const what = hitsIn(files.find((f) => f.path === ev.file), ev.line)
    out.push(`read from ${ev.file}${ev.line === undefined ? '' : `:${ev.line}`}${ev.pointer === undefined ? '' : ` ${ev.pointer}`}${what.length === 0 ? '' : `; redacted there: ${what.join(', ')}`}`)
  }
  const taskId = task.replace(/ #\d+$/, '')
  const turnFile = new RegExp(`(?:^|/)\\.guardkit/autobuild/${escapeRegex(taskId)}/(?:[a-z_]+_turn_${turn}\\.json|coach_feedback_for_turn_${turn + 1}\\.json|task_work_results\\.json)$`)
  const taskFile = new RegExp(`(?:^|/)tasks/(?:.+/)?${escapeRegex(taskId)}[^/]*\\.md$`)
  for (const f of files) {
    if (f.role === 'version' || f.hits.length === 0 || !(turnFile.test(f.path) || taskFile.test(f.path))) continue
    if (out.some((o) => o.startsWith(`read from ${f.path}`))) continue
    out.push(`redacted in ${f.path}: ${hitsIn(f, undefined).join(', ')}`)
  }
  return out
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

export function roundTripBug(runPath: string, differences: readonly VerdictDifference[]): BugError {
  return new BugError([`record: the recording of ${runPath} does not replay as RUN does (nothing was written):`, ...differences.slice(0, 12).map((d) => `  ${describeDifference(d)}`)].join('\n'))
}

function describeDifference(d: VerdictDifference): string {
  const where = [d.task, d.profile === null ? null : `profile ${d.profile}`, d.turn === null ? null : `turn ${d.turn}`].filter((x) => x !== null).join(', ')
  return `${where === '' ? '' : `${where}: `}${d.path} ${JSON.stringify(d.before)} → ${JSON.stringify(d.after)}`
}

/** The kinds redacted in a file, with their lines (all of the file's, or those on one line). */
function hitsIn(file: PreparedFile | undefined, line: number | undefined): string[] {
  if (file === undefined) return []
  const text = Buffer.from(file.bytes).toString('latin1')
  const lineOf = (offset: number) => {
    let n = 1
    for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++
    return n
  }
  const byKind = new Map<RedactionKind, number[]>()
  for (const h of file.hits) {
    const at = lineOf(h.start)
    if (line !== undefined && at !== line) continue
    byKind.set(h.kind, [...(byKind.get(h.kind) ?? []), at])
  }
  return [...byKind].map(([kind, lines]) => `${KIND_NAMES[kind]} (line${lines.length === 1 ? '' : 's'} ${[...new Set(lines)].slice(0, 5).join(', ')})`)
}
