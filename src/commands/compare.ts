import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {BaseCommand} from '../cli/base-command.js'

export default class Compare extends BaseCommand {
  static override summary = 'Did my fix change anything? Two recorded runs of the same feature or task, turn by turn.'
  static override description = `Reads RUN_A and RUN_B (logs, run directories or recordings), pairs their tasks by id — the latest attempt with the latest when a task ran more than once — and compares what GuardKit recorded, turn by turn: the outcome, the Coach's decision and criteria progress, the feedback sent to the Player (as a diff), the stall signatures (the log's own, else the run's era replayed), and the findings one run has and the other has not. Each run's GuardKit era is shown, inferred from its records.

Exit codes: 0 done (differences are not an error), 2 a run missing, unreadable or holding nothing recognisable, runs of different features or with no task in common (unless --force), or a bad flag; 3 internal error; the same with --json.`
  static override examples = [
    {description: 'Before and after a fix', command: '<%= config.bin %> <%= command.id %> runs/db_stalled.log runs/db_finally_succeds.log'},
    {description: 'One task, every turn and every feedback diff', command: '<%= config.bin %> <%= command.id %> before.log after.log --task DB-003 --verbose'},
    {description: 'For a pull request', command: '<%= config.bin %> <%= command.id %> before.log after.log --format md | gh pr comment 42 --body-file -'},
  ]
  static override args = {
    runA: Args.string({description: 'the first run (e.g. before the fix)', required: true}),
    runB: Args.string({description: 'the second run (e.g. after the fix)', required: true}),
  }
  static override enableJsonFlag = true
  static override flags = {
    task: Flags.string({char: 't', helpValue: 'ID', description: 'only this task: TASK-DB-003 or DB-003'}),
    format: Flags.option({options: ['text', 'md', 'json'] as const, default: 'text' as const, description: 'text, md or json (= --json)'})(),
    verbose: Flags.boolean({char: 'v', default: false, description: 'every turn and every feedback diff'}),
    force: Flags.boolean({default: false, description: 'compare runs of different features, or with no task in common (by default an input error, exit 2)'}),
  }

  async run() {
    const {args, flags} = await this.parse(Compare)
    const {runCompare} = await import('../services/compare.js')
    const result = await runCompare(args.runA, args.runB, {tool: {name: this.config.name, version: this.config.version}, task: flags.task, force: flags.force})
    return this.present(result, flags.format, flags.verbose)
  }
}
