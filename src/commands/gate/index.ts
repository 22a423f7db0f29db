import * as Flags from '@oclif/core/flags'
import {BaseCommand} from '../../cli/base-command.js'
import {showGateOutput} from '../../cli/gate-output.js'
import {FAIL_ON} from '../../services/gate/fail-on.js'
import {describeOpened, openReport} from '../../services/open-report.js'
import {UsageError} from '../../shared/errors.js'

export default class Gate extends BaseCommand {
  static override summary = 'CI regression gate: replay a corpus of recorded runs under two logics and fail when verdicts regress.'
  static override description = `Replays every task of every run in PATH... under BASELINE and CANDIDATE (each a profile — legacy, fixed, pre-acr, as-run:<commit>, one of --profiles FILE — or \`as-run\`, each run's own era, or \`recorded\`, what GuardKit actually did) and classifies each task: unchanged, improved (a stall caught earlier, a correct task now approved, …), regressed (an approval lost, a stall later or missing, a criterion that no longer verifies, a false approval, a new error) or changed. A corpus folder's expectations.yaml pins outcomes and declares wanted changes; it overrides the policy. docs/ci.md has the policy, the expectations format and complete CI examples.

PATH: run directories, log files, corpus folders (their sub-directories and *.log files are runs) or globs.

Output: the summary table, then each regression with the findings that explain it and its turns as diffs (baseline → candidate, recorded → candidate); --format md for a pull-request comment; --json; --junit FILE. Under GitHub Actions (GITHUB_ACTIONS=true) also ::error annotations, and a Markdown summary appended to $GITHUB_STEP_SUMMARY.

Exit codes: 0 no regression, 1 a regression (or a task --fail-on tightens), 2 usage or input error, 3 internal error; the same with --json.`
  static override examples = [
    {description: 'Gate a logic change over the fixtures', command: '<%= config.bin %> <%= command.id %> fixtures/runs --baseline legacy --candidate fixed'},
    {description: 'A real GuardKit change against what it did, with your own profile', command: '<%= config.bin %> <%= command.id %> runs/ --baseline recorded --candidate my-change --profiles my-profiles.yaml'},
    {description: 'One of four CI shards, with a JUnit file', command: '<%= config.bin %> <%= command.id %> \'corpus/**/*.log\' --baseline legacy --candidate fixed --shard 2/4 --json --junit gate-2.xml > gate-2.json'},
    {description: 'Combine the shards', command: '<%= config.bin %> gate merge gate-*.json --junit gate.xml'},
    {description: 'A pull-request comment', command: '<%= config.bin %> <%= command.id %> runs/ --baseline fixed --candidate my-change --profiles p.yaml --format md | gh pr comment 42 --body-file -'},
  ]
  static override usage = '<%= command.id %> PATH... --baseline PROFILE --candidate PROFILE [--profiles FILE] [--fail-on RULE...] [--shard I/N] [--junit FILE] [--html FILE] [--format text|md|json | --json]'
  static override strict = false
  static override enableJsonFlag = true
  static override flags = {
    baseline: Flags.string({required: true, helpValue: 'PROFILE', description: 'what the candidate is compared with: a profile, as-run or recorded'}),
    candidate: Flags.string({required: true, helpValue: 'PROFILE', description: 'the logic under test: a profile, as-run or recorded'}),
    profiles: Flags.string({helpValue: 'FILE', description: 'YAML file of your own profiles: profiles: {NAME: {base, with: [flag…], without: [flag…]}}'}),
    'fail-on': Flags.option({options: FAIL_ON, multiple: true, description: 'also fail on: changed tasks, skipped tasks or runs, candidates that become undetermined, a drop in fidelity (approximate); repeatable'})(),
    shard: Flags.string({helpValue: 'I/N', description: 'gate only shard I of N of the sorted corpus (1-based); combine the --json reports with `gate merge`'}),
    jobs: Flags.integer({min: 1, helpValue: 'N', description: 'worker threads (default: the number of cores); 1 gates in one thread'}),
    junit: Flags.string({helpValue: 'FILE', description: 'write a JUnit XML report: one testcase per run × task'}),
    html: Flags.string({helpValue: 'FILE', description: 'write the report as one self-contained HTML page (docs/html-report.md)'}),
    format: Flags.option({options: ['text', 'md', 'json'] as const, default: 'text' as const, description: 'text for a terminal, md for a pull request comment, json (= --json)'})(),
    verbose: Flags.boolean({char: 'v', default: false, description: 'list unchanged tasks too'}),
    open: Flags.boolean({default: false, description: 'open the --html page in the default browser when it is written (never waits for the browser)'}),
    'allow-empty': Flags.boolean({default: false, description: 'a gate that gates no task passes (by default it is an input error, exit 2: an empty gate is not a pass)'}),
    github: Flags.boolean({allowNo: true, description: 'under GitHub Actions (GITHUB_ACTIONS=true), ::error annotations and the step summary (default); --no-github for neither, e.g. in shard jobs whose merge reports'}),
    progress: Flags.boolean({allowNo: true, description: 'progress on stderr (default: a bar on a terminal, a line every 10 s otherwise); --no-progress for none'}),
  }

  async run() {
    const {argv, flags} = await this.parse(Gate)
    const paths = argv as string[]
    const unknown = paths.filter((p) => p.startsWith('-') && p !== '-')
    if (unknown.length > 0) throw this.unknownFlags(unknown)
    if (flags.open && flags.html === undefined) throw new UsageError('--open opens the page --html writes: give --html FILE too.', 'Try: guardkit-replay gate PATH --baseline legacy --candidate fixed --html gate.html --open')
    const {runGate} = await import('../../services/gate/run-gate.js')
    const result = await runGate(paths, {
      tool: {name: this.config.name, version: this.config.version},
      baseline: flags.baseline,
      candidate: flags.candidate,
      profilesFile: flags.profiles,
      failOn: flags['fail-on'] ?? [],
      shard: flags.shard,
      jobs: flags.jobs,
      progress: this.quiet() ? false : flags.progress,
      junit: flags.junit,
      html: flags.html,
      github: flags.github,
      allowEmpty: flags['allow-empty'],
    })
    if (flags.open && flags.html !== undefined) this.note(describeOpened(flags.html, await openReport(flags.html)))
    return showGateOutput(result, {format: flags.format, verbose: flags.verbose, jsonFlag: this.jsonEnabled(), quiet: this.quiet()}, (line) => this.log(line))
  }
}
