import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {BaseCommand} from '../cli/base-command.js'
import {SILENT} from '../services/progress.js'

export default class Record extends BaseCommand {
  static override summary = 'Turn a run (a worktree, a log, or both) into a small, redacted fixture that replays the same.'
  static override description = `Copies what replay reads of RUN into DIR — the logs, the task folders' JSON, task files with their turn history, feature YAML and .guardkit/config.yaml, at their RUN-relative paths (and versions/ when RUN is itself a recording) — plus guardkit-replay.json, the manifest with each file's sha256 and the tool version. DIR is a RUN for every command, and the same format \`live --record\` writes (docs/recording-format.md).

Redaction is on by default: API keys and tokens (sk-…, ghp_…, AKIA…, JWTs, bearer headers, passwords in connection strings and in KEY=value settings), e-mail addresses, user and host names and home directories are replaced by placeholders of the same length (/Users/richardwoollcott/… → /Users/user1xxxxxxxxxxx/…), the same placeholder for the same name in every file, so paths keep their shape. --no-redact keeps everything.

Before writing, record replays RUN and the recording under the default profiles (the run's era, legacy, fixed) and refuses (writes nothing) if any verdict, stall turn, signature or finding differs. A legacy stall signature is the md5 of the whole feedback, so a feedback that names a home directory cannot be redacted without changing it: the message names the file and line.

RUN is never written to. Exit codes: 0 recorded, 2 bad RUN or DIR (inside RUN, not empty without --force) or redaction refused, 3 internal error.`
  static override examples = [
    {description: 'Record a feature run directory (worktree and log) for the corpus', command: '<%= config.bin %> <%= command.id %> runs/FEAT-BA28 --out corpus/db-003-timeout'},
    {description: 'A single captured log', command: '<%= config.bin %> <%= command.id %> db_stalled.log --out corpus/db-stalled'},
    {description: 'Replace an earlier recording', command: '<%= config.bin %> <%= command.id %> runs/FEAT-BA28 --out corpus/db-003-timeout --force'},
    {description: 'Keep names and secrets (a private corpus)', command: '<%= config.bin %> <%= command.id %> runs/FEAT-BA28 --out private/db-003 --no-redact'},
  ]
  static override args = {run: Args.string({description: 'log file, or a directory holding logs, worktrees or a recording', required: true})}
  static override enableJsonFlag = true
  static override flags = {
    out: Flags.string({char: 'o', required: true, helpValue: 'DIR', description: 'where to write the recording: a new or empty folder outside RUN'}),
    force: Flags.boolean({default: false, description: 'replace the contents of a non-empty DIR'}),
    redact: Flags.boolean({default: true, allowNo: true, description: 'replace names and secrets by same-length placeholders (--no-redact keeps them)'}),
    'redact-also': Flags.string({multiple: true, helpValue: 'WORD', description: 'also redact this word wherever it stands alone, e.g. a GitHub handle (repeatable)'}),
  }

  async run() {
    const {args, flags} = await this.parse(Record)
    const {runRecord} = await import('../services/record.js')
    const result = await runRecord(args.run, {
      out: flags.out,
      force: flags.force,
      redact: flags.redact,
      redactAlso: flags['redact-also'] ?? [],
      tool: {name: this.config.name, version: this.config.version},
      progress: this.quiet() ? SILENT : undefined,
    })
    const {manifest: _manifest, ...summary} = result
    return this.present({kind: 'record', summary: {run: args.run, ...summary}}, 'text')
  }
}
