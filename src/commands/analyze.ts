import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {BaseCommand} from '../cli/base-command.js'
import {describeOpened} from '../services/open-report.js'
import {SILENT} from '../services/progress.js'
import {outputFlags, replayCommandFlags, profileRequest} from '../services/run-options.js'

export default class Analyze extends BaseCommand {
  static override summary = 'Replay every task of an AutoBuild run and explain each verdict (the default command).'
  static override description = `Reads RUN (a captured AutoBuild log, \`-\` for a log on stdin, a directory of logs and worktree copies, or a recording), rebuilds every task's turns, replays them under GuardKit's logic as it ran (the profile inferred for the run's era, when its records allow it), as \`legacy\` and as \`fixed\`, and explains every verdict. A log is read as it was captured: a terminal's \`tee\`, a Claude Code transcript, UTF-16, or a CI runner's log with a timestamp on every line (GitHub Actions, \`docker logs --timestamps\`); a compressed log is named as one, with the command that reads it.

The report starts with a verdict per task: what happened, why, what each profile would have done, and the turns wasted. Then the feature (waves, timeouts), and per task the cause chain of findings (most severe first), what to do now, which GuardKit change fixes it, and the stall detector turn by turn. Values rebuilt from partial records are marked approximate; what the records do not hold is shown as "(not in log)", never invented.

\`guardkit-replay RUN\` is the same as \`guardkit-replay analyze RUN\`. Exit codes: 0 done, 2 RUN missing, unreadable or holding nothing recognisable (or a bad flag), 3 internal error; the same with --json.`
  static override examples = [
    {description: 'Analyze a captured log', command: '<%= config.bin %> run.log'},
    {description: 'A feature run directory, every turn with its evidence', command: '<%= config.bin %> <%= command.id %> runs/FEAT-BA28 --verbose'},
    {description: 'Post the report on a pull request', command: '<%= config.bin %> run.log --format md | gh pr comment 42 --body-file -'},
    {description: 'A compressed log', command: '$ gzip -dc run.log.gz | <%= config.bin %> -'},
    {description: 'What would one fix alone have done?', command: '<%= config.bin %> run.log --profile legacy --with stallNormalize'},
    {description: 'Scripts: the JSON document (schemaVersion 1)', command: '<%= config.bin %> run.log --json | jq \'.tasks[] | {taskId, fixed: .replay.fixed.outcome}\''},
    {description: 'One self-contained page to open in a browser or keep as a CI artifact', command: '<%= config.bin %> run.log --format html --out report.html'},
    {description: 'Pipe a build straight in', command: 'guardkit autobuild feature FEAT-X 2>&1 | tee run.log | <%= config.bin %> -'},
  ]
  static override args = {run: Args.string({description: 'log file, - for stdin, or a directory holding logs, worktrees or a recording', required: true})}
  static override enableJsonFlag = true
  static override flags = {
    ...replayCommandFlags,
    ...outputFlags,
    format: Flags.option({
      options: ['text', 'md', 'json', 'html'] as const,
      default: 'text' as const,
      description: 'text for a terminal, md for a pull request or issue comment, json (= --json), html for one self-contained page (no network, no external files)',
    })(),
    out: Flags.string({helpValue: 'FILE', description: 'write the report to FILE instead of stdout (e.g. --format html --out report.html)'}),
    redact: Flags.boolean({default: false, description: 'replace names and secrets (home directories, user and host names, API keys, tokens, passwords) by same-length placeholders, to share the report'}),
    open: Flags.boolean({default: false, description: 'open the written report in the default browser (HTML unless --format says otherwise; without --out, written to a temporary file); never waits for the browser'}),
  }

  async run() {
    const {args, flags} = await this.parse(Analyze)
    const {runAnalyze} = await import('../services/analyze.js')
    const json = this.jsonEnabled()
    const {result, written, opened} = await runAnalyze(args.run, {
      tool: {name: this.config.name, version: this.config.version},
      // --open shows a page: the text report is for a terminal
      format: json ? 'json' : flags.open && flags.format === 'text' ? 'html' : flags.format,
      verbose: flags.verbose,
      ...profileRequest(flags),
      out: flags.out,
      redact: flags.redact,
      progress: this.quiet() ? SILENT : undefined,
      open: flags.open,
    })
    if (written !== undefined) {
      this.note(`Wrote ${written.path} (${Math.max(1, Math.round(written.bytes / 1024))} kB).`)
      if (opened !== undefined) this.note(describeOpened(written.path, opened))
      if (!json) return undefined
    }
    return this.present(result, flags.format, flags.verbose)
  }
}
