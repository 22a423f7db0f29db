import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

/** ../shared beside the clone: the corpus tier's input (`npm run test:corpus` stops early when it is missing). */
export const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url))
/** Real GuardKit console logs and worktree artifact sets, with the recorded outcome of every task. */
export const CORPUS = `${join(SHARED, 'corpus')}/`
export const CORPUS_LOGS = join(CORPUS, 'logs')
export const CORPUS_ARTIFACTS = join(CORPUS, 'artifacts')
/** Real GuardKit outputs of its decision functions, one JSON object per line. */
export const VECTORS = join(SHARED, 'oracle', 'vectors.jsonl')
