import {access} from 'node:fs/promises'
import type {GateProblem} from '../../render/gate-report.js'
import {compareCodePoints} from '../../shared/code-point-order.js'
import {expectationCandidates, shownPath, type CorpusRun} from './expand-paths.js'
import type {ExpectationsFile, TaskExpectation} from './expectations-file.js'

export interface CorpusExpectations {
  /** Files read, relative to the working directory, sorted. */
  readonly files: readonly string[]
  readonly forRun: (abs: string) => readonly TaskExpectation[]
  /** Entries naming runs that are not in the corpus (stale expectations), found before sharding. */
  readonly problems: readonly GateProblem[]
}

/**
 * The expectations.yaml of each run (the nearest from its folder up to its PATH argument's root),
 * read once each. The YAML reader and its schema load only when a corpus has such a file.
 */
export async function loadCorpusExpectations(corpus: readonly CorpusRun[], cwd: string): Promise<CorpusExpectations> {
  const existing = new Map<string, boolean>()
  const fileOf = new Map<string, string | null>()
  for (const run of corpus) {
    let chosen: string | null = null
    for (const candidate of expectationCandidates(run)) {
      if (!existing.has(candidate)) existing.set(candidate, await access(candidate).then(() => true, () => false))
      if (existing.get(candidate)) {
        chosen = candidate
        break
      }
    }
    fileOf.set(run.abs, chosen)
  }
  const paths = [...new Set([...fileOf.values()].filter((f): f is string => f !== null))].sort(compareCodePoints)
  if (paths.length === 0) return {files: [], forRun: () => [], problems: []}
  const {readExpectations} = await import('./expectations-file.js')
  const loaded = new Map<string, ExpectationsFile>()
  for (const p of paths) loaded.set(p, await readExpectations(p, cwd))
  const inCorpus = new Set(corpus.map((r) => r.abs))
  const problems: GateProblem[] = []
  for (const file of loaded.values()) {
    for (const runAbs of file.byRun.keys()) {
      if (!inCorpus.has(runAbs)) problems.push({severity: 'warning', path: file.file, message: `expectations for ${shownPath(runAbs, cwd)}, which is not in the corpus (a stale entry, or a run key that is not a path relative to this file)`})
    }
  }
  return {
    files: [...loaded.values()].map((f) => f.file).sort(compareCodePoints),
    forRun: (abs) => {
      const file = fileOf.get(abs)
      return (file ? loaded.get(file)?.byRun.get(abs) : undefined) ?? []
    },
    problems,
  }
}
