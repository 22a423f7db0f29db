import * as Args from '@oclif/core/args'
import {BaseCommand} from '../cli/base-command.js'
import {runInspect, runInspectJson} from '../services/inspect.js'

export default class Inspect extends BaseCommand {
  static override summary = 'Show what was ingested from RUN: runs, tasks, turns, recorded outcomes, ingest issues.'
  static override description = `Reads RUN (a captured AutoBuild log, \`-\` for a log on stdin, a directory holding logs and/or a worktree copy, a worktree, a repository root, or a recording) without replaying anything: every AutoBuild run in it, every task with its recorded outcome and per-turn criteria and Coach decision, every ingest issue (file and line), and per logger how many records were parsed into typed events or only counted.

--json prints the analyze report without \`replay\` and \`findings\`.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> run.log',
    '<%= config.bin %> <%= command.id %> runs/2026-06-08 --json | jq \'.tasks[] | {taskId, outcome: .recorded.outcome}\'',
    'guardkit autobuild feature FEAT-X 2>&1 | tee run.log; <%= config.bin %> <%= command.id %> run.log',
  ]
  static override args = {run: Args.string({description: 'log file, - for stdin, or a directory holding logs, worktrees or a recording', required: true})}
  static override enableJsonFlag = true
  static override flags = {}

  async run() {
    const {args} = await this.parse(Inspect)
    const tool = {name: this.config.name, version: this.config.version}
    const {result} = this.jsonEnabled() ? await runInspectJson(args.run, tool) : await runInspect(args.run, tool)
    return this.present(result, 'text')
  }
}
