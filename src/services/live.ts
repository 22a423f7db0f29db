import {isRootCause, ROOT_CAUSES} from '../model/root-cause.js'
import {mkdirSync, readdirSync, statSync} from 'node:fs'
import {isAbsolute, relative, resolve, sep} from 'node:path'
import type {AnalysisReport} from '../explain/analysis.js'
import {analyzeRun, type ReplayMemo} from '../explain/analyze-run.js'
import {formatEventLine, type LiveEvent} from '../live/events.js'
import {startLiveSession, type LiveResult, type LiveSource} from '../live/session.js'
import {EARLY_WARNING_CODES, isEarlyWarningCode} from '../live/warnings.js'
import type {RunRecord} from '../model/run-record.js'
import {UsageError} from '../shared/errors.js'
import {neutraliseInline, neutraliseJson, neutraliseNames, neutraliseOutput, neutralised} from '../shared/neutralise.js'
import {chooseProfiles, type ProfileRequest} from './run-options.js'

export interface LiveOptions extends ProfileRequest {
  readonly tool: {readonly name: string; readonly version: string}
  /** CMD and its arguments (everything after `--`); empty in attach mode. */
  readonly command: readonly string[]
  readonly attach: boolean
  readonly log: string | null
  readonly worktree: string | null
  readonly record: string | null
  readonly stopOn: readonly string[]
  readonly json: boolean
  readonly graceSeconds: number
  readonly timeScale: number
  readonly polling: boolean
  readonly follow: boolean
  /** Plain lines even on a terminal. */
  readonly noDashboard: boolean
  /** No dashboard, no event lines, no summary (`--quiet`); CMD's own output still passes through. */
  readonly quiet?: boolean
  readonly env?: NodeJS.ProcessEnv
  readonly cwd?: string
  readonly stdout?: NodeJS.WriteStream
  readonly stderr?: NodeJS.WriteStream
  readonly stdin?: NodeJS.ReadStream
  /** Replaces the replay memo (tests count its hits). */
  readonly memo?: ReplayMemo
  readonly now?: () => Date
}

export interface LiveOutcome {
  readonly exitCode: number
  readonly result: LiveResult
}

/**
 * `guardkit-replay live`: checks the flags, picks the output (the ink dashboard on a terminal —
 * ink is imported only then —, else one line or, with --json, one JSON object per event), runs the
 * session and ends with the command's exit code. With --json the last object is the final report,
 * the same document `analyze --json` prints for the recording.
 */
export async function runLive(options: LiveOptions): Promise<LiveOutcome> {
  const cwd = options.cwd ?? process.cwd()
  const env = options.env ?? process.env
  const stdout = options.stdout ?? process.stdout
  const stderr = options.stderr ?? process.stderr
  const stdin = options.stdin ?? process.stdin
  const source = checkSource(options, cwd, env)
  const stopOn = checkStopOn(options.stopOn, source)
  const record = options.record ?? defaultRecordDir((options.now ?? (() => new Date()))())
  checkOutsideWorktree(record, options.worktree, cwd)
  // every usage error before the recording directory is created: a refused run leaves nothing behind
  const profiles = await chooseProfiles(options)
  const catalogue = options.signalsFile === undefined ? undefined : await (await import('./user-signals.js')).loadSignalCatalogue(options.signalsFile)
  const created = checkRecordDir(record, cwd)
  const memo = options.memo ?? (await import('../live/replay-memo.js')).createReplayMemo()
  const analyze = (run: RunRecord): AnalysisReport => analyzeRun(run, {profiles, memo, tool: options.tool, ...(catalogue === undefined ? {} : {catalogue})})
  const quiet = options.quiet === true && !options.json
  const dashboard = !options.json && !options.noDashboard && !quiet && stdout.isTTY === true && stdin.isTTY === true && !inCi(env)
  const write = (stream: NodeJS.WriteStream, text: string) => stream.write(text)
  const onEvent = (event: LiveEvent) => {
    if (dashboard) return
    if (options.json) {
      write(stdout, `${neutraliseJson(JSON.stringify({...event, time: new Date().toISOString()}))}\n`)
      return
    }
    // paths, task ids and messages come from the build: one line each, nothing the terminal or a CI runner acts on
    const line = quiet ? null : formatEventLine(neutraliseNames(event))
    if (line !== null) write(stderr, neutraliseOutput(`[guardkit-replay] ${neutraliseInline(line)}\n`))
  }
  const session = await startLiveSession({
    source,
    recordDir: record,
    runPath: record,
    worktree: options.worktree,
    stopOn,
    graceMs: options.graceSeconds * 1000,
    timeScale: options.timeScale,
    tool: options.tool,
    analyze,
    polling: options.polling,
    passthrough: dashboard ? undefined : (chunk, stream) => (options.json || stream === 'stderr' ? stderr : stdout).write(chunk),
    onEvent,
    handleSignals: true,
  })
  let view: {unmount(): void; waitUntilExit(): Promise<unknown>} | null = null
  if (dashboard) {
    // React's development build (what NODE_ENV unset selects) keeps debugging data for every render:
    // memory would grow with every redraw of a long build
    process.env.NODE_ENV ??= 'production'
    const {renderDashboard} = await import('../render/ink/run-dashboard.js')
    const actions = {quit: session.quit, interrupt: session.interrupt, activity: () => session.store.userActivity()}
    view = renderDashboard({source: session.store, actions, confirmQuit: source.kind === 'spawn', stdout, stdin})
  }
  const result = await session.done
  // a command that could not start leaves no recording behind (an empty run.log would read as a run)
  const discarded = result.exit?.kind === 'failed-to-start' ? await discardRecording(resolve(cwd, record), created) : false
  if (view) {
    // the last frame (exit status, final warnings) stays on screen
    await new Promise((r) => setTimeout(r, 150))
    view.unmount()
    await view.waitUntilExit().catch(() => undefined)
    // ink's last frame ends without a newline: the summary starts on a line of its own
    write(stdout, neutraliseOutput(`\n${summary(result, record, discarded)}`))
  } else if (options.json) {
    const {buildAnalysisReport} = await import('../render/json/build-analysis-report.js')
    if (discarded) write(stdout, `${neutraliseJson(JSON.stringify({type: 'notice', time: new Date().toISOString(), message: noRecording(record)}))}\n`)
    write(stdout, `${neutraliseJson(JSON.stringify({type: 'report', time: new Date().toISOString(), report: buildAnalysisReport(result.report)}))}\n`)
  } else if (!quiet) {
    // the warnings and the exit were told as they happened: what is left is where the recording is
    const lines = [
      ...(result.stoppedBy ? [`stopped the build on ${result.stoppedBy.code} (--stop-on)`] : []),
      ...(result.recordError ? [`the recording may be incomplete: ${result.recordError.message}`] : []),
      discarded ? noRecording(record) : `${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}; recording: ${record} (analyze it: guardkit-replay ${record})`,
    ]
    write(stderr, neutraliseOutput(lines.map((l) => `[guardkit-replay] ${neutraliseInline(l)}\n`).join('')))
  }
  return {exitCode: result.exitCode, result}
}

function checkSource(options: LiveOptions, cwd: string, env: NodeJS.ProcessEnv): LiveSource {
  if (options.attach) {
    if (options.command.length > 0) throw new UsageError('--attach follows a running build: give --log FILE, not a command.', 'guardkit-replay live --attach --log run.log --worktree .guardkit/worktrees/FEAT-X')
    if (options.log === null) throw new UsageError('--attach needs --log FILE: the log the running build writes.', 'guardkit-replay live --attach --log run.log --worktree .guardkit/worktrees/FEAT-X')
    const st = statSync(resolve(cwd, options.log), {throwIfNoEntry: false})
    if (st !== undefined && !st.isFile()) {
      throw new UsageError(neutralised`--log ${options.log}: not a regular file (${st.isDirectory() ? 'a directory' : 'a FIFO, socket or device'}); --attach follows the log file a build writes.`)
    }
    return {kind: 'attach', log: options.log, cwd, follow: options.follow}
  }
  if (options.log !== null) throw new UsageError('--log is for --attach.', 'To run a build: guardkit-replay live -- guardkit autobuild feature FEAT-X')
  const [command, ...args] = options.command
  if (command === undefined) throw new UsageError('Give the command to run after --, or --attach --log FILE.', 'guardkit-replay live -- guardkit autobuild feature FEAT-X --max-turns 10')
  return {kind: 'spawn', command, args, cwd, env}
}

function checkStopOn(values: readonly string[], source: LiveSource): string[] {
  const codes = values.flatMap((v) => v.split(',')).map((c) => c.trim()).filter((c) => c !== '')
  for (const code of codes) {
    if (!isEarlyWarningCode(code) && !isRootCause(code)) {
      throw new UsageError(neutralised`--stop-on ${code}: not a code live warns about, nor a root-cause category.`, `Codes: ${EARLY_WARNING_CODES.join(', ')}. Categories (docs/root-causes.md): ${ROOT_CAUSES.join(', ')}.`)
    }
  }
  if (codes.length > 0 && source.kind === 'attach') throw new UsageError('--stop-on needs a build live started: in --attach mode the build is not live\'s to stop.')
  return codes
}

/** live never writes into the worktree it watches (GuardKit's, or a copy being investigated). */
function checkOutsideWorktree(record: string, worktree: string | null, cwd: string): void {
  if (worktree === null) return
  const rel = relative(resolve(cwd, worktree), resolve(cwd, record))
  const outside = rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)
  if (!outside) {
    throw new UsageError(neutralised`--record ${record}: inside the watched worktree ${worktree}; live never writes there.`, 'Give --record a folder outside the worktree, e.g. --record ../runs/feat-x')
  }
}

/**
 * The recording directory must be new or empty, and creatable: checked (and created) before CMD
 * starts. Returns whether it was created here (else it existed, empty).
 */
function checkRecordDir(dir: string, cwd: string): boolean {
  const abs = resolve(cwd, dir)
  let entries: string[] | null = null
  try {
    if (!statSync(abs).isDirectory()) throw new UsageError(neutralised`--record ${dir}: exists and is not a directory.`)
    entries = readdirSync(abs)
  } catch (error) {
    if (error instanceof UsageError) throw error
  }
  if (entries !== null && entries.length > 0) throw new UsageError(neutralised`--record ${dir}: the directory is not empty.`, 'Give a new (or empty) directory for the recording.')
  try {
    mkdirSync(abs, {recursive: true})
  } catch (error) {
    throw new UsageError(neutralised`--record ${dir}: cannot create the directory (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`)
  }
  return entries === null
}

/**
 * Removes what this session wrote into the recording directory (it was new or empty when CMD was
 * started): the directory itself when it was created here. Returns whether it is gone.
 */
async function discardRecording(abs: string, created: boolean): Promise<boolean> {
  const {readdir, rm} = await import('node:fs/promises')
  try {
    if (created) await rm(abs, {recursive: true, force: true})
    else for (const name of await readdir(abs)) await rm(resolve(abs, name), {recursive: true, force: true})
    return true
  } catch {
    return false
  }
}

function noRecording(record: string): string {
  return `the command could not start: no recording kept (${record} removed)`
}

function defaultRecordDir(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
  return `guardkit-replay-live-${stamp}`
}

function inCi(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0'
}

function summary(result: LiveResult, record: string, discarded: boolean): string {
  const lines = [
    result.exit === null ? 'stopped following the log' : `${result.exit.kind === 'failed-to-start' ? result.exit.message : `command exited with code ${result.exitCode}`}`,
    ...result.warnings.map((w) => `warning ${w.code} ${w.taskId} turn ${w.turn ?? '?'}: ${w.message}`),
    ...(result.stoppedBy ? [`stopped the build on ${result.stoppedBy.code} (--stop-on)`] : []),
    ...(result.recordError ? [`the recording may be incomplete: ${result.recordError.message}`] : []),
    discarded ? noRecording(record) : `recording: ${record} (analyze it: guardkit-replay ${record})`,
  ]
  return `${lines.join('\n')}\n`
}
