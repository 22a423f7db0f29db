import * as Flags from '@oclif/core/flags'
import {BaseCommand} from '../../cli/base-command.js'
import {showGateOutput} from '../../cli/gate-output.js'

export default class GateMerge extends BaseCommand {
  static override summary = 'Combine the --json reports of gate shards into one verdict (and one JUnit file).'
  static override description = `Reads the reports written by \`guardkit-replay gate … --shard I/N --json > FILE\` on several CI runners and prints the gate's report for the whole corpus, as one unsharded gate would: the same runs, classes and verdict. The reports must come from the same gate (baseline, candidate, policy, shard count) and cover every shard once.

Exit codes: 0 no regression, 1 a regression, 2 a missing, unreadable, foreign or overlapping report (or a bad flag), 3 internal error; the same with --json. Under GitHub Actions it writes the annotations and the step summary, as gate does.`
  static override examples = [
    {description: 'After a matrix of four shards', command: '<%= config.bin %> gate merge gate-1.json gate-2.json gate-3.json gate-4.json --junit gate.xml'},
    {description: 'The merged report as Markdown for the pull request', command: '<%= config.bin %> gate merge reports/*.json --format md | gh pr comment 42 --body-file -'},
  ]
  static override usage = 'gate merge REPORT.json... [--junit FILE] [--html FILE] [--format text|md|json | --json]'
  static override strict = false
  static override enableJsonFlag = true
  static override flags = {
    junit: Flags.string({helpValue: 'FILE', description: 'write a JUnit XML report of the merged gate'}),
    html: Flags.string({helpValue: 'FILE', description: 'write the merged report as one self-contained HTML page'}),
    format: Flags.option({options: ['text', 'md', 'json'] as const, default: 'text' as const, description: 'text, md or json (= --json)'})(),
    verbose: Flags.boolean({char: 'v', default: false, description: 'list unchanged tasks too'}),
    'allow-empty': Flags.boolean({default: false, description: 'a gate that gates no task passes (by default it is an input error, exit 2: an empty gate is not a pass)'}),
    github: Flags.boolean({allowNo: true, description: 'under GitHub Actions, ::error annotations and the step summary (default); --no-github for neither'}),
  }

  async run() {
    const {argv, flags} = await this.parse(GateMerge)
    const files = argv as string[]
    const unknown = files.filter((f) => f.startsWith('-'))
    if (unknown.length > 0) throw this.unknownFlags(unknown)
    const {runGateMerge} = await import('../../services/gate-merge.js')
    const result = await runGateMerge(files, {junit: flags.junit, html: flags.html, github: flags.github, allowEmpty: flags['allow-empty']})
    return showGateOutput(result, {format: flags.format, verbose: flags.verbose, jsonFlag: this.jsonEnabled(), quiet: this.quiet()}, (line) => this.log(line))
  }
}
