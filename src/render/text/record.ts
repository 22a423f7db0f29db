/** What `record` did, as the command reports it (the JSON document is this without the manifest). */
export interface RecordSummary {
  readonly run: string
  /** The recording's absolute path. */
  readonly out: string
  readonly redacted: boolean
  readonly files: number
  readonly versions: number
  readonly bytes: number
  /** What redaction replaced, per kind. */
  readonly replaced: Readonly<Record<string, number>>
  /** The profiles under which the recording was checked to replay as RUN does. */
  readonly profiles: readonly string[]
  readonly tasks: readonly {readonly taskId: string; readonly attempt: number; readonly recorded: string | null; readonly replay: Readonly<Record<string, string | null>>}[]
}

/** Three lines: what was written, what redaction replaced, and the replay check it passed. */
export function renderRecordText(r: RecordSummary): string {
  const replaced = Object.entries(r.replaced).map(([kind, n]) => `${n} ${kind}`).join(', ')
  return [
    `Recorded ${r.run} → ${r.out}: ${count(r.files, 'file')}${r.versions === 0 ? '' : ` and ${count(r.versions, 'earlier version')}`}, ${r.bytes} bytes.`,
    r.redacted ? `Redacted: ${replaced === '' ? 'nothing to redact' : replaced}.` : 'Not redacted (--no-redact): names and secrets are kept.',
    `Checked: the recording replays as RUN does under ${r.profiles.join(', ')} (${count(r.tasks.length, 'task')}).`,
  ].join('\n')
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}
