import type {IngestIssue} from '../../model/ingest-issue.js'
import {type AttemptTasksSink, createRunBuilder, type LogIngestResult} from '../build-from-log.js'
import {createAttributor} from './attribution.js'
import {createLogEncoding} from './byte-encoding.js'
import type {AssembledEvent} from './box-assembler.js'
import {isMarkerNote} from './build/era-markers.js'
import {keep} from './build/keep.js'
import {classifyConsole} from './console-grammar.js'
import type {EventOf, ParsedEvent} from './events.js'
import {fileIssues, type FileState, MAX_LINE_ISSUES, newFileState} from './file-state.js'
import {afterCollectorStampInBytes, afterCollectorStampInText} from './collector-stamp.js'
import {createByteLineSplitter, decodeLine} from './line-splitter.js'
import {createLoggerTable} from './logger-table.js'
import {isOutsideMargin, isWrapContinuation, unwrapTerminal, wrapIndent} from './hard-wrap.js'
import {append, appendWrapped, finishConsole, messageOf, openItem} from './open-item.js'
import {type LineSink, scanPhysicalLine} from './physical-line.js'
import {consoleSignal, interruptLine, recordSignal, type SignalText} from './signals/capture.js'
import {isPlainChunk, spinnerEnd, spinnerEndText} from './spinner.js'
import {classifyToolCall, createTranscriptReader, recordHash, type TranscriptHost, type TranscriptReader} from './transcript.js'

/**
 * The streaming log ingest: lines (or raw bytes) go in one at a time, a RunRecord's log-derived
 * parts come out. Pure — the caller reads files, stdin or a growing log (`live`) and pushes what
 * it read. Memory is bounded by what the result holds, not by the log: records are parsed as
 * they close, attribution looks ahead through a fixed window, and each multi-line item is capped.
 */
export interface LogIngest {
  /** Lines pushed from now on belong to `file` (RUN-relative), numbered from 1. */
  startFile(file: string): void
  /** One physical line, without its newline. */
  push(line: string): void
  /** Raw bytes of the current file; split into lines here (over-long lines cut). */
  pushBytes(chunk: Uint8Array): void
  endFile(): void
  /**
   * Attribute everything read so far now instead of waiting for the look-ahead window to fill
   * (live mode calls it when the log goes quiet, before a snapshot). The line being read is taken
   * as complete.
   */
  flush(): void
  /** The result so far without ending anything (live dashboards); call flush() first to include the latest lines. */
  snapshot(): LogIngestResult
  finish(): LogIngestResult
}

export interface LogIngestOptions {
  readonly maxLineChars?: number
  /** Called for every record or console line no grammar recognised (diagnostics, grammar work). */
  readonly onUnrecognised?: (file: string, line: number, text: string) => void
  /**
   * Streaming: each attempt's task runs are handed over as the attempt ends and not kept, so the
   * result's `tasks` stays empty (docs/ingest.md "Streaming"). Not for a snapshotted ingest: a
   * snapshot would hand over the attempts still open.
   */
  readonly onAttemptTasks?: AttemptTasksSink
}

const CONSOLE = '(console)'

/** The cut mark as the capture shows it, without the margin before it. */
function neutralQuote(text: string): string {
  return text.replace(/^\s+/, '').replace(/\s+$/, '')
}

/** Only whitespace (as `\s`), tested without building the stripped copy. */
function isBlank(text: string): boolean {
  return /^\s*$/.test(text)
}

export function createLogIngest(options: LogIngestOptions = {}): LogIngest {
  const builder = createRunBuilder(options.onAttemptTasks)
  const attributor = createAttributor((a) => builder.consume(a), (s) => builder.consumeSignal(s))
  const loggers = createLoggerTable()
  const issues: IngestIssue[] = []
  let attempt = 0
  let attemptHasStart = false
  /** The lines being split come from chunks without CR, ESC, C1 CSI or NUL (see pushBytes). */
  let plainBytes = false
  /** The bytes of the unfinished line (carried since the last LF, over any number of chunks) are plain. */
  let carriedPlain = true
  /** The last byte pushed was 0xC2, the first half of a C1 CSI that the next chunk may finish. */
  let endsInC2 = false
  /** The file the current attempt was read from (attempts never span files). */
  let attemptFile: string | null = null
  let promptSinceStart: {line: number; command: string} | null = null
  let f: FileState | null = null
  /** The current file is a Claude Code transcript (transcript.ts): set at its first tool call. */
  let transcript: TranscriptReader | null = null
  /** A transcript's attempts, still open, with the last line each was seen on. */
  const transcriptRuns = new Map<number, number>()
  /** The attempt number of a re-printed record: attribution sees it, the RunRecord does not. */
  const DUPLICATE = -1
  /** The physical line being scanned (what is left of it after a spinner). */
  let lineText = ''
  /**
   * A transcript's lines are the output of a tool call that neither runs nor shows an AutoBuild run
   * (`⏺ Bash(pip install …)`): its tracebacks and error lines are the session's own, not GuardKit's.
   */
  let foreignOutput = false

  /** The console's counters, looked up once (on first use: a log without console text lists none). */
  let consoleStat: {parsed: number; counted: number} | null = null

  function consoleCount(parsed: boolean): void {
    const s = (consoleStat ??= loggers.entry(CONSOLE).stat)
    if (parsed) s.parsed++
    else s.counted++
  }

  function openAttempt(line: number, hasStart: boolean, command: string | null = null): void {
    const start = promptSinceStart?.line ?? line
    // Events held for look-ahead still belong to the attempt that ends here.
    attributor.drain()
    // A transcript can print a run again later (transcript.ts): its runs stay open until the file ends.
    if (transcript === null && attempt > 0 && builder.fileOfAttempt(attempt) === f!.file) builder.endAttempt(attempt, Math.max(start - 1, 1))
    attempt = builder.startAttempt(f!.file, start, promptSinceStart?.command ?? command)
    attemptFile = f!.file
    attemptHasStart = hasStart
    promptSinceStart = null
    attributor.startAttempt(attempt)
    if (transcript !== null) transcriptRuns.set(attempt, start)
  }

  /** The ingest's side of the transcript reader: attempts it opens or returns to, events it routes. */
  const transcriptHost: TranscriptHost = {
    route(held, target) {
      if (held.hash !== null) printed.settle(held.line, target)
      if (target === null) return deliver(held.event, held.line, held.logger, held.level, DUPLICATE)
      if (target !== attempt) transcriptHost.resume(target)
      transcriptRuns.set(target, held.line)
      printed.flush(held.line, target)
      deliver(held.event, held.line, held.logger, held.level, target)
      signal(held.signal, held.line, target)
    },
    open(line, hasStart, command) {
      openAttempt(line, hasStart, command)
      return attempt
    },
    resume(target) {
      attributor.drain()
      attributor.startAttempt(target)
      attempt = target
      attemptFile = f!.file
      attemptHasStart = true
    },
  }

  function onToolCall(event: EventOf<'c-transcript'>, line: number): void {
    transcript ??= createTranscriptReader(transcriptHost)
    const call = classifyToolCall(event.tool, event.input)
    foreignOutput = call.kind === 'other' && event.tool !== null
    transcript.toolCall(call, line)
    printed.endPrint()
    promptSinceStart = call.kind === 'run' ? {line, command: keep(call.command)} : null
    if (call.kind === 'kill') {
      const target = transcript.attemptOf(call.source)
      if (target !== null) attributor.push({kind: 'c-run-killed', source: call.source}, line, null, null, target)
    }
  }

  /**
   * Attempt segmentation (docs/record-formats.md §5.1.7): a shell prompt followed by an orchestration start.
   * True when a transcript's print took the event: its signal `sig` goes where the print routes it.
   */
  function dispatch(event: ParsedEvent, line: number, logger: string | null, level: string | null, hash: number | null = null, message?: string, sig: SignalText | null = null): boolean {
    const fs = f!
    if (event.kind === 'c-transcript') {
      onToolCall(event, line)
      return false
    }
    if (transcript !== null && transcript.inPrint({event, line, logger, level, hash, ...(message === undefined ? {} : {message}), ...(sig === null ? {} : {signal: sig})})) return true
    if (event.kind === 'c-prompt') {
      promptSinceStart = {line, command: keep(event.command)}
      return false
    }
    const sameFile = attempt > 0 && attemptFile === fs.file
    if (event.kind === 'cli-start') {
      if (!sameFile || attemptHasStart) openAttempt(line, true)
      else {
        attemptHasStart = true
        if (promptSinceStart !== null) builder.setAttemptCommand(attempt, promptSinceStart.line, promptSinceStart.command)
        promptSinceStart = null
      }
    } else if (!sameFile) {
      // Console text before the first record (shell noise, another program's output) opens no attempt.
      if (logger === null) return false
      openAttempt(line, false)
    } else if (logger === 'guardkit.cli.autobuild' && attemptHasStart && promptSinceStart !== null) {
      openAttempt(line, false)
    }
    if (transcript !== null) {
      transcriptRuns.set(attempt, line)
      if (hash !== null) transcript.noteRecord(attempt, hash, event.kind === 'cli-start')
    }
    // Recognised but inert (counted above): routine notes, spinners, other console chrome.
    if (!((event.kind === 'note' && !isMarkerNote(event.name)) || event.kind === 'c-spinner' || event.kind === 'c-other')) attributor.push(event, line, logger, level, attempt)
    return false
  }

  /** dispatch's last step, for the events a transcript's print routes (the same filter). */
  function deliver(event: ParsedEvent, line: number, logger: string | null, level: string | null, to: number): void {
    if ((event.kind === 'note' && !isMarkerNote(event.name)) || event.kind === 'c-spinner' || event.kind === 'c-other') return
    attributor.push(event, line, logger, level, to)
  }

  /** A signal read at `line` (signals/capture.ts) for attempt `to`, after the event of the same item if there was one. */
  function signal(s: SignalText | null | undefined, line: number, to: number = attempt): void {
    if (s == null || (foreignOutput && s.source === 'console')) return
    if (to > 0 && attemptFile === f!.file) attributor.signal(s, line, to)
  }

  /**
   * A signal read with no event (an unrecognised record, an interrupt line). Inside a transcript's
   * print it waits for the print's next record: a repeat of the run repeats it too (read the first
   * time), new output is new. What follows a print's last record goes with that record.
   */
  function looseSignal(s: SignalText | null, line: number): void {
    if (s === null) return
    if (transcript?.printing === true) printed.hold(s, line)
    else signal(s, line)
  }

  /** The loose signals of the print being read, and where its last record went. */
  const printed = {
    waiting: [] as {s: SignalText; line: number}[],
    /** undefined: no record routed yet in this print; null: the last one repeated the run. */
    last: undefined as number | null | undefined,
    hold(s: SignalText, line: number): void {
      printed.waiting.push({s, line})
    },
    /** The record at `line` was routed to `target` (null: a repeat): the signals before it go with it. */
    settle(line: number, target: number | null): void {
      printed.last = target
      if (target === null) printed.waiting = printed.waiting.filter((w) => w.line > line)
    },
    flush(line: number, target: number): void {
      if (printed.waiting.length === 0) return
      const before = printed.waiting.filter((w) => w.line < line)
      printed.waiting = printed.waiting.filter((w) => w.line >= line)
      for (const w of before) signal(w.s, w.line, target)
    },
    endPrint(): void {
      const to = printed.last
      const rest = printed.waiting
      printed.waiting = []
      printed.last = undefined
      if (to != null) for (const w of rest) signal(w.s, w.line, to)
    },
  }

  function closeItem(): void {
    const fs = f!
    const item = fs.open
    if (item.kind === 'none') return
    const kind = item.kind
    item.kind = 'none'
    if (kind === 'record') {
      if (item.dropped > 0) {
        issues.push({file: fs.file, line: item.line, code: 'long-record', severity: 'info',
          message: `a multi-line ${item.logger} record continues for ${item.dropped} more lines than are kept; the rest of it was skipped`})
      }
      let message = messageOf(item)
      const {level, logger, line} = item
      const entry = loggers.entry(logger)
      // a plain capture hard-wrapped at the terminal's width: the record read as the one line it was
      const unwrapped = transcript === null && item.more !== null && fs.atLongest >= 3 ? unwrapTerminal(item.first, item.more, item.width, fs.longest) : null
      if (unwrapped !== null) message = unwrapped
      const parsed = entry.parse(level, message)
      if (parsed !== null) entry.stat.parsed++
      else entry.stat.counted++
      if (parsed === null) {
        options.onUnrecognised?.(fs.file, line, `${level}:${logger}:${message}`)
        fs.unrecognised++
        if (fs.firstUnrecognised === null) fs.firstUnrecognised = {line, logger: keep(logger)}
        const loose = recordSignal(level, logger, message)
        if (loose !== null) fs.unrecognisedSignals++
        return looseSignal(loose, line)
      }
      fs.recognised++
      const sig = recordSignal(level, logger, message)
      const held = transcript === null ? dispatch(parsed, line, logger, level) : dispatch(parsed, line, logger, level, recordHash(level, logger, message), message, sig)
      if (!held) signal(sig, line)
      return
    }
    const event = finishConsole(item)
    if (event !== null) {
      fs.recognised++
      consoleCount(true)
      const sig = consoleSignal(event, item.first, item.more)
      if (!dispatch(event, item.line, null, null, null, undefined, sig)) signal(sig, item.line)
    }
  }

  function emitBoxes(list: readonly AssembledEvent[]): void {
    for (const {event, line} of list) {
      consoleCount(true)
      f!.recognised++
      dispatch(event, line, null, null)
    }
  }

  function onConsole(text: string): void {
    const fs = f!
    const cls = classifyConsole(text)
    if (!cls.start) {
      const open = fs.open
      if (open.kind === 'record' && open.wrapIndent > 0) {
        // A transcript's record goes on at its margin; text left of the margin is the transcript's own (hard-wrap.ts).
        if (open.blanks === 0 && isWrapContinuation(text, open.wrapIndent)) return appendWrapped(open, text.slice(open.wrapIndent))
        if (isOutsideMargin(text, open.wrapIndent)) closeItem()
      }
      looseSignal(interruptLine(text), fs.lineNo)
      if (open.kind !== 'none') append(open, text)
      else if (text !== '') {
        options.onUnrecognised?.(fs.file, fs.lineNo, text)
        fs.unrecognised++
        consoleCount(false)
      }
      return
    }
    if (cls.event === null && cls.block === undefined && (fs.open.kind === 'record' || fs.open.block === 'traceback') && isBlank(text)) {
      // A blank line may sit inside a record (FalkorDB query dumps) or a chained traceback: kept only if it goes on.
      fs.open.blanks++
      return emitBoxes(fs.boxes.flush())
    }
    closeItem()
    if (cls.block === 'box') return emitBoxes(fs.boxes.feed(text, fs.lineNo))
    if (cls.block === 'summary-table') {
      const status = /AutoBuild Summary \(([A-Z_]+)\)/.exec(text)![1]!
      return emitBoxes(fs.boxes.expectSummary(status, fs.lineNo))
    }
    if (cls.event === null && cls.block !== 'traceback') {
      if (isBlank(text)) emitBoxes(fs.boxes.flush())
      return
    }
    const event: ParsedEvent = cls.event ?? {kind: 'c-traceback', lines: []}
    if (event.kind === 'c-capture-cut') {
      issues.push({file: fs.file, line: fs.lineNo, code: 'capture-cut', severity: 'warning',
        message: `the capture leaves ${event.omitted} ${event.unit} of the output out here (${neutralQuote(text)}): the records of that stretch are not in the log`})
    }
    openItem(fs.open, 'console', fs.lineNo, text)
    fs.open.event = event
    fs.open.block = cls.block === 'traceback' ? 'traceback' : cls.block === 'prompt' ? 'prompt' : null
    if (event.kind === 'c-spinner' || (event.kind === 'c-other' && event.name === 'progress-bar')) {
      // A spinner line can carry more console text after its percentage ("…   0%  ✓ TASK-DB-002: SUCCESS …").
      const pct = /\s\d{1,3}%/.exec(text)
      const rest = pct === null ? '' : text.slice(pct.index + pct[0].length)
      if (!isBlank(rest)) {
        closeItem()
        onConsole(rest)
      }
    }
  }

  function onLineBytes(buf: Uint8Array, from: number, end: number, dropped: number): void {
    const fs = f!
    const enc = fs.encoding
    if (enc !== null && enc.checkLines && enc.lineIsInvalid(buf, from, end)) fs.invalidUtf8Line = fs.lineNo + 1
    const start = fs.stamps === 'none' ? from : from + afterStamp(fs, afterCollectorStampInBytes(buf, from, end) - from)
    const pct = dropped === 0 ? spinnerEnd(buf, start, end, plainBytes) : -1
    if (pct === -1) return onLine(decodeLine(buf as Parameters<typeof decodeLine>[0], start, end), dropped)
    // A spinner redraw (a third of a capture's bytes) is never decoded; what follows its
    // percentage on the line (another task's record, mostly) is read as usual.
    f!.lineNo++
    spinner()
    let i = pct + 1
    while (i < end && (buf[i] === 0x20 || buf[i] === 0x09)) i++
    if (i < end) onText(decodeLine(buf as Parameters<typeof decodeLine>[0], i, end))
  }

  /** How much of the line a collector's timestamp takes (`length` of it there, 0 without one); the file's first line decides whether its lines have one. */
  function afterStamp(fs: FileState, length: number): number {
    if (fs.stamps === 'undecided') fs.stamps = length > 0 ? 'stripped' : 'none'
    return fs.stamps === 'stripped' ? length : 0
  }

  /** A spinner at the start of a line: recognised console text that ends any open item. */
  function spinner(): void {
    closeItem()
    f!.recognised++
    consoleCount(true)
  }

  function onLine(text: string, droppedChars: number): void {
    const fs = f!
    fs.lineNo++
    if (text.length > fs.longest) {
      fs.longest = text.length
      fs.atLongest = 1
    } else if (text.length === fs.longest) fs.atLongest++
    if (droppedChars > 0 && ++fs.longLines <= MAX_LINE_ISSUES) {
      issues.push({file: fs.file, line: fs.lineNo, code: 'too-long-line', severity: 'warning',
        message: `line of ${text.length + droppedChars} characters: only its first ${text.length} were read`})
    }
    // The same reading as onLineBytes gives a spinner line, for lines pushed as text.
    const pct = droppedChars === 0 ? spinnerEndText(text) : -1
    if (pct === -1) return onText(text)
    spinner()
    let i = pct + 1
    while (i < text.length && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++
    if (i < text.length) onText(text.slice(i))
  }

  /** The text of the current physical line (or what is left of it after a spinner). */
  function onText(text: string): void {
    const fs = f!
    lineText = text
    if (plainBytes) return scanPhysicalLine(text, sink, true)
    if (text.indexOf('\u0000') !== -1) {
      if (fs.binaryLines++ === 0) fs.firstBinaryLine = fs.lineNo
      closeItem()
      return
    }
    scanPhysicalLine(text, sink)
  }

  const sink: LineSink = {
    record(level, logger, message) {
      closeItem()
      const fs = f!
      openItem(fs.open, 'record', fs.lineNo, message)
      fs.open.level = level
      fs.open.logger = logger
      // A transcript indents a command's output; its records may go on over wrapped lines (hard-wrap.ts).
      if (lineText.charCodeAt(0) === 0x20) fs.open.wrapIndent = wrapIndent(lineText, level, logger)
      // a record that starts its line: in a capture hard-wrapped at a terminal's width, the line may be that width
      else if (lineText.length === level.length + logger.length + 2 + message.length) fs.open.width = lineText.length
    },
    console: (text) => onConsole(text),
  }

  /** UTF-8 bytes of the current file into its line splitter. */
  function pushLineBytes(fs: FileState, chunk: Uint8Array): void {
    fs.splitter ??= createByteLineSplitter(onLineBytes, options)
    // Most captures hold no CR, escape or NUL at all: one native search per chunk spares three
    // per line. A line begun in earlier chunks is plain only if all its bytes were, so the
    // plainness of the unfinished line is carried until its LF, however many chunks it spans.
    const plain = isPlainChunk(chunk) && !(endsInC2 && chunk[0] === 0x9b)
    plainBytes = plain && carriedPlain
    fs.splitter.push(chunk)
    plainBytes = false
    const lastLf = chunk.lastIndexOf(0x0a)
    if (lastLf === -1) carriedPlain &&= plain
    else carriedPlain = plain || isPlainChunk(chunk.subarray(lastLf + 1))
    if (chunk.length > 0) endsInC2 = chunk[chunk.length - 1] === 0xc2
  }

  function endFile(): void {
    const fs = f
    if (fs === null) return
    const rest = fs.encoding?.end()
    if (rest !== undefined && rest.length > 0) pushLineBytes(fs, rest)
    fs.splitter?.end()
    closeItem()
    emitBoxes(fs.boxes.flush())
    if (transcript !== null) {
      issues.push(...transcript.finish(fs.file))
      printed.endPrint()
    }
    attributor.drain()
    for (const [run, last] of transcriptRuns) builder.endAttempt(run, last)
    transcriptRuns.clear()
    if (attempt > 0 && builder.fileOfAttempt(attempt) === fs.file) builder.endAttempt(attempt, fs.lineNo)
    transcript = null
    foreignOutput = false
    issues.push(...fileIssues(fs))
    f = null
  }

  return {
    startFile(file) {
      endFile()
      f = newFileState(file)
      builder.addLog(file)
      promptSinceStart = null
      carriedPlain = true
      endsInC2 = false
    },
    push(line) {
      if (f === null) this.startFile('-')
      const fs = f!
      onLine(fs.stamps === 'none' ? line : line.slice(afterStamp(fs, afterCollectorStampInText(line))), 0)
    },
    pushBytes(chunk) {
      if (f === null) this.startFile('-')
      const fs = f!
      fs.encoding ??= createLogEncoding()
      pushLineBytes(fs, fs.encoding.transcode(chunk))
    },
    endFile,
    flush() {
      if (f === null) return
      closeItem()
      attributor.drain()
    },
    snapshot() {
      return builder.build(issues, loggers.stats)
    },
    finish() {
      endFile()
      attributor.drain()
      return builder.build(issues, loggers.stats)
    },
  }
}
