import * as Args from '@oclif/core/args'
import {BaseCommand} from '../cli/base-command.js'
import {runConformance} from '../services/conformance.js'
import {EXIT} from '../shared/exit-codes.js'

export default class Conformance extends BaseCommand {
  static override summary = 'Check this tool\'s model of GuardKit against oracle vectors.'
  static override description = `Each line of FILE is one recorded call of a real GuardKit function: {"fn", "version", "input", "output"}. The model is run on the same input under the version's logic profile (legacy or fixed) and its output compared with the recorded one, key order included. Exits 1 when any vector fails or is unsupported.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> oracle-vectors.jsonl',
    '<%= config.bin %> <%= command.id %> my-vectors.jsonl --json | jq \'.results[] | select(.status != "pass")\'',
  ]
  static override args = {file: Args.string({description: 'JSONL file of oracle vectors', required: true})}
  static override enableJsonFlag = true
  static override flags = {}

  async run() {
    const {args} = await this.parse(Conformance)
    const report = await runConformance(args.file)
    if (report.failed > 0 || report.unsupported > 0) process.exitCode = EXIT.failed
    return this.present({kind: 'conformance', report}, 'text')
  }
}
