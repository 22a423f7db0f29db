import type {IngestIssue} from '../../model/ingest-issue.js'
import {readErrorIssue, type FsPort} from './file-port.js'
import {formatBytes} from './read-text.js'

/**
 * Streams one file of RUN (a log) to `onChunk` and reports what went wrong reading it: unreadable,
 * larger than `maxBytes` (the head is read), changing while read. Content problems (an empty log,
 * binary lines, over-long lines) are the consumer's to report: the log ingest reports them for
 * stdin too, so an empty log gets one issue. Returns whether anything was read.
 */
export async function streamFile(port: FsPort, path: string, file: string, maxBytes: number, onChunk: (chunk: Uint8Array) => void, issues: IngestIssue[]): Promise<boolean> {
  let bytes = 0
  try {
    const read = await port.readChunks(path, maxBytes, (chunk) => {
      bytes += chunk.length
      onChunk(chunk)
    })
    if (read.truncated) {
      issues.push({file, code: 'too-large', severity: 'warning', message: `the file is larger than ${formatBytes(maxBytes)}: only its first ${formatBytes(maxBytes)} were read`})
    }
    if (read.before.size !== read.after.size || read.before.mtimeMs !== read.after.mtimeMs) {
      issues.push({file, code: 'changed-during-read', severity: 'warning',
        message: `the file changed while it was read (size ${read.before.size} → ${read.after.size} bytes; still being written?): what was there is used, its end may be cut`})
    }
  } catch (error) {
    issues.push(readErrorIssue(file, error, bytes > 0 ? `; the first ${bytes} bytes were used` : ''))
    return bytes > 0
  }
  return bytes > 0
}
