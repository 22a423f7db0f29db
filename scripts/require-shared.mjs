// The corpus tier reads ../shared beside the clone (the real GuardKit logs and artifacts, the oracle vectors, the
// diagnoses). Without it, say so in one line instead of a run of file-not-found errors; npm test and
// npm run test:e2e need nothing outside the clone.
import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

const shared = fileURLToPath(new URL('../../shared/', import.meta.url))
const needed = ['corpus/logs', 'corpus/artifacts', 'corpus/expected.json', 'corpus/diagnoses', 'oracle/vectors.jsonl']
const missing = needed.filter((p) => !existsSync(shared + p))
if (missing.length > 0) {
  process.stderr.write(
    `test:corpus needs ../shared beside the clone (${shared}): missing ${missing.map((p) => `../shared/${p}`).join(', ')}.\n` +
      'npm test and npm run test:e2e need nothing outside the clone.\n',
  )
  process.exit(1)
}
