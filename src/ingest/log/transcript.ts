import type {IngestIssue} from '../../model/ingest-issue.js'
import type {ParsedEvent} from './events.js'
import type {SignalText} from './signals/capture.js'

/**
 * Claude Code transcripts (docs/ingest.md "Transcripts"). The `/feature-build` command of December
 * 2025 – January 2026 ran `guardkit autobuild` from Claude Code, mostly in the background, and
 * showed its output whenever it looked: `⏺ Task Output b937e25` prints everything so far,
 * `⏺ Bash(tail -200 …/tasks/b937e25.output)` the end of it. One run's output is then printed
 * several times, each print a longer prefix or a later window of the same output. Read naively,
 * every print is another run (three `max_turns_exceeded` runs where there was one).
 *
 * A print is matched, record by record, against what is already known of a run: records seen
 * before are duplicates (they still pass through attribution, which rebuilds its context from
 * them, but the RunRecord does not take them again); records past the end of what was known are
 * new output of that run. The run a print shows is found by the id of the background shell when
 * the tool call names one, else by the run's first record (`Starting feature orchestration: …`)
 * or by where the print's first records sit in a run already read. A print whose records match no
 * run is a run of its own.
 */
export type ToolCall =
  | {readonly kind: 'run'; readonly command: string}
  | {readonly kind: 'view'; readonly source: string | null; readonly command: string}
  | {readonly kind: 'kill'; readonly source: string}
  | {readonly kind: 'other'}

const RUNS_AUTOBUILD = /\bguardkit(?:-py)?\s+autobuild\s+(?:feature|task)\s+(?!--help)\S/
const SHOWS_OUTPUT = /(?:^|[\s;&|(])(?:tail|cat|head|less|more|grep)\s/
/** A background shell's output file (`/tmp/claude/…/tasks/b937e25.output`) names its id. */
const OUTPUT_FILE = /\/tasks\/([0-9a-z]{5,})\.output\b/
const SHELL_ID = /^([0-9a-z]{5,})$/

/** What a transcript's tool call does to the AutoBuild output around it. */
export function classifyToolCall(tool: string | null, input: string): ToolCall {
  if (tool === null) return {kind: 'other'}
  if (tool === 'Task Output' || tool === 'Read agent output' || tool === 'BashOutput') {
    const id = SHELL_ID.exec(input.replace(/^\s+|\s+$/g, ''))?.[1] ?? OUTPUT_FILE.exec(input)?.[1] ?? null
    return {kind: 'view', source: id, command: `${tool} ${input}`}
  }
  if (tool === 'Kill Shell' || tool === 'KillShell') {
    const id = /([0-9a-z]{5,})\s*$/.exec(input)?.[1]
    return id === undefined ? {kind: 'other'} : {kind: 'kill', source: id}
  }
  if (tool !== 'Bash') return {kind: 'other'}
  if (SHOWS_OUTPUT.test(input) && !RUNS_AUTOBUILD.test(input)) return {kind: 'view', source: OUTPUT_FILE.exec(input)?.[1] ?? null, command: input}
  return RUNS_AUTOBUILD.test(input) ? {kind: 'run', command: input} : {kind: 'other'}
}

/** 32-bit FNV-1a of a record: its identity within a transcript. */
export function recordHash(level: string, logger: string, message: string): number {
  let h = 0x811c9dc5
  h = mix(h, level)
  h = Math.imul(h ^ 0x1f, 0x01000193)
  h = mix(h, logger)
  h = Math.imul(h ^ 0x1f, 0x01000193)
  return mix(h, message) >>> 0
}

function mix(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h
}

/** An event read inside a print, with what routing it needs. */
export interface Held {
  readonly event: ParsedEvent
  readonly line: number
  readonly logger: string | null
  readonly level: string | null
  /** recordHash of a logging record; null for console text. */
  readonly hash: number | null
  /** The record's message (a print's last record may be cut: a later print's whole record starts with it). */
  readonly message?: string
  /** The signal read with the event (signals/capture.ts): it goes where the event goes, and not again with a repeat. */
  readonly signal?: SignalText
}

/** What the transcript reader asks of the ingest. */
export interface TranscriptHost {
  /** Deliver to attempt `attempt` (new output), or only through attribution (`null`: a duplicate). */
  route(held: Held, attempt: number | null): void
  /** Opens a new attempt at `line` (a run first seen in this print) and makes it current. */
  open(line: number, hasStart: boolean, command: string | null): number
  /** Makes an attempt already read current again, with fresh attribution context. */
  resume(attempt: number): void
}

/** How many records of a print that starts mid-run are needed to find where it sits. */
const ANCHOR_RECORDS = 6
/** How far a print may skip ahead in a run's records (a line the print lost) and still be that run. */
const RESYNC_WINDOW = 40
/** Records in a row that fit nowhere in the matched run: the print shows another run that started alike. */
const DIVERGED = 3
/** Events of one print kept for reading it again as a run of its own. */
const MAX_SEEN = 50_000

interface Print {
  readonly source: string | null
  readonly startLine: number
  endLine: number
  mode: 'undecided' | 'duplicate' | 'new'
  target: number | null
  pos: number
  readonly held: Held[]
  /** Every event of the print so far, while it is matched to a run (to read it as a run of its own if it is not that run). */
  readonly seen: Held[]
  /** Records of a matched print that fit nowhere in its run. */
  dropped: number
  /** Records in a row that fit nowhere in the run: a few mean the print shows another run. */
  misses: number
  /** The message of the last record this print added to its run. */
  lastMessage: string | null
}

interface RunTrack {
  readonly hashes: number[]
  /** Records that came last in a print, which may have cut them, by position: a later print may hold them whole. */
  readonly tentative: Map<number, string>
  startHash: number | null
  source: string | null
  readonly reprints: {from: number; to: number; dropped: number}[]
}

export interface TranscriptReader {
  /** A tool call line: ends the print before it; a view opens a new one. */
  toolCall(call: ToolCall, line: number): void
  /** An event inside a print: routed here (true), or not in a print (false: the ingest dispatches it). */
  inPrint(held: Held): boolean
  /** A record dispatched outside prints (inline output of a run command) belongs to `attempt`. */
  noteRecord(attempt: number, hash: number, isStart: boolean): void
  /** The attempt a killed shell ran, when known. */
  attemptOf(source: string): number | null
  /** The run command seen last (a background run's command, for the attempt its first print opens). */
  readonly lastRunCommand: string | null
  /** A print is being read: what is read now is routed through it. */
  readonly printing: boolean
  /** End of file: the last print closed; one note per run printed more than once. */
  finish(file: string): IngestIssue[]
}

export function createTranscriptReader(host: TranscriptHost): TranscriptReader {
  const runs = new Map<number, RunTrack>()
  const bySource = new Map<string, number>()
  let print: Print | null = null
  let lastRunCommand: string | null = null

  function track(attempt: number): RunTrack {
    let t = runs.get(attempt)
    if (t === undefined) runs.set(attempt, (t = {hashes: [], tentative: new Map(), startHash: null, source: null, reprints: []}))
    return t
  }

  function claimSource(attempt: number, source: string | null): void {
    if (source === null || bySource.has(source)) return
    bySource.set(source, attempt)
    track(attempt).source = source
  }

  /** A new run first seen in this print: it gets an attempt of its own. */
  function openNew(p: Print, line: number, hasStart: boolean): void {
    const fromSource = p.source !== null ? bySource.get(p.source) : undefined
    if (fromSource !== undefined) {
      // new output of a run already read (a print showing what earlier prints had not reached)
      host.resume(fromSource)
      p.target = fromSource
    } else {
      p.target = host.open(line, hasStart, lastRunCommand)
      claimSource(p.target, p.source)
    }
    p.mode = 'new'
  }

  function deliverNew(p: Print, held: Held): void {
    const t = track(p.target!)
    if (held.hash !== null) {
      t.hashes.push(held.hash)
      p.lastMessage = held.message ?? null
      if (held.event.kind === 'cli-start' && t.startHash === null) t.startHash = held.hash
    }
    host.route(held, p.target)
  }

  /** The latest position where `hashes` holds `probe` as a run, or -1. */
  function lastRunOf(hashes: readonly number[], probe: readonly number[]): number {
    outer: for (let p = hashes.length - probe.length; p >= 0; p--) {
      for (let i = 0; i < probe.length; i++) if (hashes[p + i] !== probe[i]) continue outer
      return p
    }
    return -1
  }

  /** The runs a print may show: the one its shell id names; else, most recent first, those no other shell id names. */
  function candidates(p: Print): number[] {
    const known = p.source !== null ? bySource.get(p.source) : undefined
    if (known !== undefined) return [known]
    return [...runs.entries()].filter(([, t]) => p.source === null || t.source === null).map(([k]) => k).sort((a, b) => b - a)
  }

  /** Decides which run an undecided print shows, from its held records, and delivers them. */
  function decide(p: Print): void {
    const records = p.held.filter((h) => h.hash !== null)
    if (records.length === 0) return
    const first = records[0]!
    let target: number | null = null
    let pos = 0
    if (first.event.kind === 'cli-start') {
      for (const k of candidates(p)) {
        const t = runs.get(k)
        if (t?.startHash === first.hash && t.hashes[0] === first.hash) {
          target = k
          break
        }
      }
    } else {
      for (const k of candidates(p)) {
        const at = lastRunOf(runs.get(k)?.hashes ?? [], records.map((h) => h.hash!))
        if (at !== -1) {
          target = k
          pos = at
          break
        }
      }
    }
    const held = p.held.splice(0)
    if (target === null) {
      openNew(p, first.line, first.event.kind === 'cli-start')
      for (const h of held) if (h.hash !== null || h.line >= first.line) deliverNew(p, h)
      return
    }
    host.resume(target)
    p.target = target
    p.mode = 'duplicate'
    p.pos = pos
    const run = track(target)
    run.reprints.push({from: p.startLine, to: p.startLine, dropped: 0})
    for (const h of held) step(p, h)
  }

  /** One event of a print matched to a run: a duplicate while it repeats the run, new after its end. */
  function step(p: Print, held: Held): void {
    if (p.mode === 'new') return deliverNew(p, held)
    if (p.seen.length < MAX_SEEN) p.seen.push(held)
    const run = track(p.target!)
    if (held.hash === null) return host.route(held, null)
    if (p.pos >= run.hashes.length) {
      p.mode = 'new'
      return deliverNew(p, held)
    }
    if (run.hashes[p.pos] === held.hash) {
      p.pos++
      p.misses = 0
      return host.route(held, null)
    }
    const cut = run.tentative.get(p.pos)
    if (cut !== undefined && held.message !== undefined && held.message.length > cut.length && held.message.startsWith(cut)) {
      // the record an earlier print cut off, whole this time: read it again
      run.tentative.delete(p.pos)
      run.hashes[p.pos++] = held.hash
      return host.route(held, p.target)
    }
    const limit = Math.min(run.hashes.length, p.pos + RESYNC_WINDOW)
    for (let q = p.pos + 1; q < limit; q++) {
      if (run.hashes[q] === held.hash) {
        p.pos = q + 1
        p.misses = 0
        return host.route(held, null)
      }
    }
    if (++p.misses >= DIVERGED && p.seen.length < MAX_SEEN) return rehome(p)
    // Not in the run where the print stands: the print lost or changed it (a cut tail); not read twice.
    p.dropped++
  }

  /**
   * The print started like a run already read but goes another way (the same command run again,
   * shown without the id of its shell): it is a run of its own, read from the print's start.
   */
  function rehome(p: Print): void {
    const run = track(p.target!)
    if (run.reprints.at(-1)?.from === p.startLine) run.reprints.pop()
    const events = p.seen.splice(0)
    const first = events.find((h) => h.hash !== null) ?? events[0]!
    p.target = host.open(first.line, first.event.kind === 'cli-start', lastRunCommand)
    if (p.source !== null) {
      // the shell's id named the run it was wrongly matched to: it names this one
      for (const t of runs.values()) if (t.source === p.source) t.source = null
      bySource.delete(p.source)
    }
    claimSource(p.target, p.source)
    p.mode = 'new'
    p.dropped = 0
    for (const h of events) if (h.hash !== null || h.line >= first.line) deliverNew(p, h)
  }

  function endPrint(): void {
    const p = print
    print = null
    if (p === null) return
    if (p.mode === 'undecided') decide(p)
    if (p.target !== null) {
      claimSource(p.target, p.source)
      const run = track(p.target)
      if (p.mode === 'new' && run.hashes.length > 0 && p.lastMessage !== null) run.tentative.set(run.hashes.length - 1, p.lastMessage)
      const last = runs.get(p.target)?.reprints.at(-1)
      if (last !== undefined && last.from === p.startLine) {
        last.to = p.endLine
        last.dropped = p.dropped
      }
    }
  }

  return {
    get lastRunCommand() {
      return lastRunCommand
    },
    get printing() {
      return print !== null
    },
    toolCall(call, line) {
      endPrint()
      if (call.kind === 'run') lastRunCommand = call.command
      if (call.kind === 'view') print = {source: call.source, startLine: line, endLine: line, mode: 'undecided', target: null, pos: 0, held: [], seen: [], dropped: 0, misses: 0, lastMessage: null}
    },
    inPrint(held) {
      const p = print
      if (p === null) return false
      p.endLine = held.line
      if (p.mode !== 'undecided') {
        step(p, held)
        return true
      }
      p.held.push(held)
      if (held.hash !== null && (held.event.kind === 'cli-start' || p.held.filter((h) => h.hash !== null).length >= ANCHOR_RECORDS)) decide(p)
      return true
    },
    noteRecord(attempt, hash, isStart) {
      const t = track(attempt)
      t.hashes.push(hash)
      if (isStart && t.startHash === null) t.startHash = hash
    },
    attemptOf(source) {
      return bySource.get(source) ?? null
    },
    finish(file) {
      endPrint()
      const issues: IngestIssue[] = []
      for (const [, run] of [...runs.entries()].sort(([a], [b]) => a - b)) {
        if (run.reprints.length === 0) continue
        const places = run.reprints.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}–${r.to}`))
        const shown = places.length > 6 ? `${places.slice(0, 6).join(', ')} and ${places.length - 6} more` : places.join(', ')
        const dropped = run.reprints.reduce((n, r) => n + r.dropped, 0)
        issues.push({file, line: run.reprints[0]!.from, code: 'repeated-output', severity: 'info',
          message: `the transcript prints this AutoBuild run's output again at lines ${shown}: one run, read once` +
            (dropped > 0 ? ` (${dropped} record(s) of those prints fit nowhere in the run and were not read)` : '')})
      }
      return issues
    },
  }
}
