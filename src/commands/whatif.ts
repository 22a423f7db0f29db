import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {BaseCommand} from '../cli/base-command.js'
import {SILENT} from '../services/progress.js'
import {outputFlags, replayCommandFlags, profileRequest} from '../services/run-options.js'

export default class WhatIf extends BaseCommand {
  static override summary = 'Find the logic changes that, alone or in the smallest combination, flip each task\'s outcome.'
  static override description = `Replays each task under its baseline (the run's era, else legacy) with logic changes switched on one at a time, then in the smallest combinations, and lists every set that changes the outcome: the new outcome, the first turn at which the replay differs, and how exact that is. When even \`fixed\` does not reach a correct verdict, it says why (FIXED_STILL_FAILS). The search bound is stated. \`guardkit-replay profiles\` lists the changes. Exit codes: 0 done, 2 unknown task, bad RUN or flag, 3 internal error.`
  static override examples = [
    {description: 'Every task of a run', command: '<%= config.bin %> <%= command.id %> run.log'},
    {description: 'One task', command: '<%= config.bin %> <%= command.id %> run.log --task TASK-DB-003'},
    {description: 'Then replay with the change that flips it', command: '<%= config.bin %> run.log --with stallNormalize'},
    {description: 'For scripts', command: '<%= config.bin %> <%= command.id %> run.log --json | jq \'.tasks[] | {taskId, flips: [.whatif.flips[]?.flags]}\''},
  ]
  static override args = {run: Args.string({description: 'log file, - for stdin, or a directory holding logs, worktrees or a recording', required: true})}
  static override enableJsonFlag = true
  static override flags = {
    task: Flags.string({char: 't', helpValue: 'ID', description: 'only this task (TASK-DB-003, or DB-003)'}),
    attempt: Flags.integer({min: 1, helpValue: 'N', description: 'which AutoBuild run of the log, when the task ran more than once (default: the last)'}),
    ...replayCommandFlags,
    format: outputFlags.format,
  }

  async run() {
    const {args, flags} = await this.parse(WhatIf)
    const {runWhatIf} = await import('../services/whatif.js')
    const result = await runWhatIf(args.run, {
      tool: {name: this.config.name, version: this.config.version},
      task: flags.task,
      attempt: flags.attempt,
      ...profileRequest(flags),
      progress: this.quiet() ? SILENT : undefined,
    })
    return this.present(result, flags.format)
  }
}
