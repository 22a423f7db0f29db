import * as Flags from '@oclif/core/flags'
import {BaseCommand} from '../cli/base-command.js'
import {replayCommandFlags} from '../services/run-options.js'

export default class Live extends BaseCommand {
  static override summary = 'Run an AutoBuild (or follow one) with a live dashboard, early warnings and a replayable recording.'
  static override description = `Runs CMD (everything after --) in its own process group with your environment and working directory, passes its output through, writes everything it prints to DIR/run.log, finds the worktree in its output (or --worktree), and copies every artifact of the worktree's .guardkit/autobuild/ into DIR as it lands — keeping each version GuardKit overwrites (the agent-written player_turn_N.json before the invoker replaces it, each turn's task_work_results.json) with when it was seen. DIR is a recording: \`guardkit-replay DIR\` analyses it, and \`live --json\`'s final report is that analysis.

While the build runs, the same replay as \`analyze\` runs over the records so far and raises early warnings, each with a finding code: \`ZERO_OF_N_TEXT_MATCH_EMPTY\` (0/N with no completion_promises), SYNTHETIC_FLAG_MISSING, STALL_DEFEATED_BY_VARIABLE_OUTPUT (signatures that differ only by normalisable detail), INFRA_TEST_FAILURE, ABSOLUTE_RELATIVE_DUPLICATES, ENDED_BY_TIMEOUT_NOT_STALL (half the task timeout gone with no criteria progress), ORCHESTRATION_CRASH, LOG_SIGNAL (a line of the signal catalogue; a model API or set-up error warns the moment it is read) and more (docs/live.md). --stop-on stops the build gracefully when one fires; it takes codes and root-cause categories (model-api, configuration, …).

On a terminal: a dashboard (↑/↓ select a task, e explanation so far, q quit — asks before stopping a spawned build). Without one (CI, pipes) or with --json: one line, or one JSON object, per event; the last --json object is the final report. Ctrl-C is forwarded to CMD, which gets --grace seconds to stop; the recording is always finished; the exit code is CMD's.`
  static override examples = [
    {description: 'Run a feature build with the dashboard', command: '<%= config.bin %> <%= command.id %> --record runs/feat-x -- guardkit autobuild feature FEAT-X --max-turns 10'},
    {description: 'Stop early when the Coach can only ever verify 0/N', command: '<%= config.bin %> <%= command.id %> --stop-on ZERO_OF_N_TEXT_MATCH_EMPTY,SYNTHETIC_FLAG_MISSING -- guardkit autobuild task TASK-X'},
    {description: 'Stop at the first model API or set-up error (authentication, rate limit, an old SDK)', command: '<%= config.bin %> <%= command.id %> --stop-on model-api,configuration -- guardkit autobuild feature FEAT-X'},
    {description: 'Follow a build started elsewhere', command: '<%= config.bin %> <%= command.id %> --attach --log build.log --worktree .guardkit/worktrees/FEAT-X'},
    {description: 'CI: events and the final report as JSON lines', command: '<%= config.bin %> <%= command.id %> --json -- guardkit autobuild feature FEAT-X | tail -n 1 | jq .report.tasks'},
  ]
  static override usage = ['<%= command.id %> [FLAGS] -- CMD [ARGS...]', '<%= command.id %> --attach --log FILE [--worktree DIR] [FLAGS]']
  static override strict = false
  static override enableJsonFlag = true
  static override flags = {
    record: Flags.string({char: 'r', helpValue: 'DIR', description: 'where to write the recording (new or empty, outside the watched worktree; default ./guardkit-replay-live-<time>)'}),
    worktree: Flags.string({char: 'w', helpValue: 'DIR', description: 'the worktree to watch (default: the one CMD names in its output, else the current directory)'}),
    attach: Flags.boolean({default: false, description: 'follow a build that is already running (with --log), instead of running CMD'}),
    log: Flags.string({helpValue: 'FILE', description: 'with --attach: the log the build writes (appends followed, truncation and rotation survived)'}),
    follow: Flags.boolean({default: false, description: 'with --attach: keep following after the run has ended (until q or Ctrl-C)'}),
    'stop-on': Flags.string({multiple: true, helpValue: 'CODE[,CODE]', description: 'stop the build (SIGINT, then --grace) when a warning with one of these codes, or of one of these root-cause categories (model-api, configuration, …: docs/root-causes.md), fires'}),
    grace: Flags.integer({default: 30, min: 0, helpValue: 'SECONDS', description: 'how long CMD gets to stop after SIGINT before SIGTERM'}),
    'no-dashboard': Flags.boolean({default: false, description: 'plain lines even on a terminal'}),
    poll: Flags.boolean({default: false, description: 'poll the worktree instead of using file change events (network file systems)'}),
    'time-scale': Flags.integer({default: 1, min: 1, hidden: true, description: 'seconds of build per second of clock (simulated builds run faster)'}),
    ...replayCommandFlags,
  }

  async run() {
    const {flags, raw} = await this.parse(Live)
    // oclif reorders non-strict arguments; CMD is exactly what follows the first `--`
    const separator = this.argv.indexOf('--')
    const command = separator === -1 ? raw.filter((t) => t.type === 'arg').map((t) => t.input) : this.argv.slice(separator + 1)
    const {runLive} = await import('../services/live.js')
    const {exitCode} = await runLive({
      tool: {name: this.config.name, version: this.config.version},
      command,
      attach: flags.attach,
      log: flags.log ?? null,
      worktree: flags.worktree ?? null,
      record: flags.record ?? null,
      stopOn: flags['stop-on'] ?? [],
      json: this.jsonEnabled(),
      graceSeconds: flags.grace,
      timeScale: flags['time-scale'],
      polling: flags.poll,
      follow: flags.follow,
      noDashboard: flags['no-dashboard'],
      quiet: this.quiet(),
      names: flags.profile ?? [],
      with: flags.with ?? [],
      without: flags.without ?? [],
      profilesFile: flags.profiles,
      signalsFile: flags.signals,
    })
    process.exitCode = exitCode
  }

  /** The events and the report were printed as they came (one JSON object per line). */
  protected override logJson(): void {}
}
