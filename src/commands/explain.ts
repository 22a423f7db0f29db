import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {BaseCommand} from '../cli/base-command.js'
import {SILENT} from '../services/progress.js'
import {outputFlags, replayCommandFlags, profileRequest} from '../services/run-options.js'

export default class Explain extends BaseCommand {
  static override summary = 'Show everything behind one task\'s verdict, or one turn\'s: criteria, signatures, evidence.'
  static override description = `The deep dump for one task (every turn) or one turn (--turn): the recorded turn with its evidence lines and GuardKit's own 0/N dump; then, per profile, how the Player's data reached the Coach (pipeline losses), every acceptance criterion with the matching strategy, the data it saw and the closest requirement with its score, the feedback sent (and a diff against the recorded one), the raw and normalised signatures, the stall detector's window and why it fired or not, and every difference from the record. --profile chooses whose view (default: the run's era, legacy and fixed). Exit codes: 0 done, 2 unknown task or turn, bad RUN or flag, 3 internal error.`
  static override examples = [
    {description: 'Every turn of one task', command: '<%= config.bin %> <%= command.id %> run.log --task TASK-DB-003'},
    {description: 'The turn where fixed stops, under fixed only', command: '<%= config.bin %> <%= command.id %> run.log --task TASK-DB-003 --turn 5 --profile fixed'},
    {description: 'Attach the dump to an issue', command: '<%= config.bin %> <%= command.id %> run.log --task DB-003 --format md > task-db-003.md'},
    {description: 'Per-criterion detail for scripts', command: '<%= config.bin %> <%= command.id %> run.log --task TASK-DB-003 --turn 1 --json | jq \'.tasks[0].replay.fixed.turns[0].detail.coach\''},
  ]
  static override args = {run: Args.string({description: 'log file, - for stdin, or a directory holding logs, worktrees or a recording', required: true})}
  static override enableJsonFlag = true
  static override flags = {
    task: Flags.string({char: 't', required: true, helpValue: 'ID', description: 'the task (TASK-DB-003, or DB-003)'}),
    turn: Flags.integer({min: 1, helpValue: 'N', description: 'only this turn'}),
    attempt: Flags.integer({min: 1, helpValue: 'N', description: 'which AutoBuild run of the log, when the task ran more than once (default: the last)'}),
    ...replayCommandFlags,
    format: outputFlags.format,
  }

  async run() {
    const {args, flags} = await this.parse(Explain)
    const {runExplain} = await import('../services/explain.js')
    const result = await runExplain(args.run, {
      tool: {name: this.config.name, version: this.config.version},
      task: flags.task,
      turn: flags.turn,
      attempt: flags.attempt,
      ...profileRequest(flags),
      progress: this.quiet() ? SILENT : undefined,
    })
    return this.present(result, flags.format)
  }
}
