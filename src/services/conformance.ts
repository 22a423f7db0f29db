import {readUserFile} from '../ingest/index.js'
import {parseVectorLines} from '../conformance/vector.js'
import {runVectors, type ConformanceReport} from '../conformance/run-vectors.js'
import {UsageError} from '../shared/errors.js'
import {neutralised} from '../shared/neutralise.js'

export async function runConformance(file: string): Promise<ConformanceReport> {
  let text: string
  try {
    text = await readUserFile(file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new UsageError(
      code === 'ENOENT' ? `No vector file at ${file}.` : `Cannot read ${file} (${code ?? (error as Error).message}).`,
      'Pass a JSONL file of oracle vectors, e.g. `guardkit-replay conformance oracle-vectors.jsonl`.',
    )
  }
  const lines = parseVectorLines(text)
  if (lines.length === 0) throw new UsageError(neutralised`${file} holds no vectors.`, 'Each line must be a JSON object with fn, version, input and output.')
  return runVectors(lines)
}
