import {analyzeJson, extraSpec, inspectJson} from './commands.js'
import {checkOutcome, firstTaskId, issueCodes, type CommandOutcome, type CommandSpec} from './invariants.js'
import {materialise, removeTree} from './materialise.js'
import type {RunCase} from './model/types.js'
import {hashTree} from './tree-hash.js'

/**
 * One case: write it to disk, run the commands in-process (and through the built CLI when the case
 * says so and a build is given), check each command's outcome and that nothing below the case's
 * folder changed (RUN, the folder outside it that links point at, the link to RUN), then remove it.
 */

export interface CaseOptions {
  /** The built CLI's bin/run.js, or null: in-process only. */
  readonly cli: {readonly runJs: string; readonly timeoutMs: number} | null
  readonly inProcess: (argv: readonly string[]) => Promise<CommandOutcome>
  readonly runBuilt: (runJs: string, argv: readonly string[], options: {cwd: string | null; timeoutMs: number}) => Promise<CommandOutcome>
  /** Keep the folder (for a failure to be looked at). */
  readonly keep: boolean
  /** Told before each command starts (so that a hang can be named). */
  readonly onCommand?: (name: string) => void
}

export interface CommandRecord {
  readonly name: string
  readonly via: 'in-process' | 'cli'
  readonly exit: number | null
  readonly ms: number
}

export interface CaseResult {
  readonly failures: readonly string[]
  readonly commands: readonly CommandRecord[]
  /** Entries that could not be written as modelled (a file where a folder should be, …). */
  readonly skipped: readonly string[]
  /** Ingest issue codes `analyze --json` reported. */
  readonly issueCodes: readonly string[]
  readonly dir: string
  readonly msTotal: number
}

export async function checkCase(c: RunCase, base: string, options: CaseOptions): Promise<CaseResult> {
  const started = performance.now()
  const failures: string[] = []
  const commands: CommandRecord[] = []
  let codes: string[] | undefined
  let m
  try {
    m = materialise(c, base)
  } catch (error) {
    removeTree(base)
    throw error
  }
  try {
    let before = hashTree(base)
    const run = async (spec: CommandSpec, via: CommandRecord['via'], exec: () => Promise<CommandOutcome>): Promise<CommandOutcome> => {
      const label = via === 'cli' ? '[built CLI] ' : ''
      options.onCommand?.(`${label}${spec.name}`)
      const out = await exec()
      commands.push({name: spec.name, via, exit: out.exit, ms: out.ms})
      failures.push(...checkOutcome(spec, out).map((f) => `${label}${f}`))
      const after = hashTree(base)
      if (after !== before) {
        failures.push(`${label}${spec.name}: changed the files of the case (RUN, the folder outside it, or the link to it) on disk`)
        // the next command is judged on its own
        before = after
      }
      return out
    }

    // in-process: RUN always by an absolute path (the working directory is the fuzzer's)
    const runInProc = m.arg.cwd === null ? m.arg.path : m.run
    const analyze = analyzeJson(runInProc)
    const analyzed = await run(analyze, 'in-process', () => options.inProcess(analyze.argv))
    codes = issueCodes(analyzed.stdout)
    const first = firstTaskId(analyzed.stdout)
    const inspect = inspectJson(runInProc)
    await run(inspect, 'in-process', () => options.inProcess(inspect.argv))
    if (c.extra !== null) {
      const spec = extraSpec(c.extra, runInProc, first)
      await run(spec, 'in-process', () => options.inProcess(spec.argv))
    }

    if (c.cli && options.cli !== null) {
      const cli = options.cli
      const specs = [analyzeJson(m.arg.path), c.extra === null ? inspectJson(m.arg.path) : extraSpec(c.extra, m.arg.path, first)]
      for (const spec of specs) await run(spec, 'cli', () => options.runBuilt(cli.runJs, spec.argv, {cwd: m.arg.cwd, timeoutMs: cli.timeoutMs}))
    }
  } finally {
    if (!options.keep) removeTree(base)
  }
  return {failures, commands, skipped: m.skipped, issueCodes: codes ?? [], dir: base, msTotal: performance.now() - started}
}
