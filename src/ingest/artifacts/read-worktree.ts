import {join} from 'node:path'
import type {IngestIssue} from '../../model/ingest-issue.js'
import type {ArtifactVersion} from '../../model/run-record.js'
import type {DiscoveredFile, DiscoveredWorktree, IngestLimits, RecordingManifest} from '../discover.js'
import {parseFeatureYaml, type ParsedFeature} from '../feature/parse-feature-yaml.js'
import {parseGuardkitConfig} from '../feature/parse-config-yaml.js'
import type {FsPort} from '../fs/file-port.js'
import {readAhead} from '../fs/read-ahead.js'
import {readTextFile, type TextReadOptions} from '../fs/read-text.js'
import {parseTaskFile, type ParsedTaskFile} from '../tasks/parse-task-file.js'
import {classifyArtifactName, hasBadTurnNumber, type ArtifactKind} from './artifact-names.js'
import {parseArtifact} from './parse-artifact.js'

export interface ArtifactFile {
  readonly name: string
  readonly kind: ArtifactKind | null
  readonly turn: number | null
  /** The file as it is now, then earlier versions a fixture kept (oldest first). */
  readonly versions: readonly ArtifactVersion[]
}

export interface ArtifactFolder {
  readonly taskId: string
  /** RUN-relative folder. */
  readonly dir: string
  /** RUN-relative worktree root. */
  readonly worktree: string
  /** Files that parsed (the rest are issues), by name. */
  readonly files: readonly ArtifactFile[]
  /**
   * JSON files that exist but gave nothing usable (unreadable, empty, binary, invalid): their
   * content is an issue, but a per-turn file's existence still shows that its turn happened.
   */
  readonly damaged?: readonly Omit<ArtifactFile, 'versions'>[]
}

export interface WorktreeRecords {
  readonly rel: string
  readonly folders: readonly ArtifactFolder[]
  readonly taskFiles: readonly (ParsedTaskFile & {readonly inWorktree: string})[]
  readonly features: readonly ParsedFeature[]
  readonly config: {readonly file: string; readonly yaml: Readonly<Record<string, unknown>>} | null
}

/** Reads in flight at once beyond the one being parsed (src/ingest/fs/read-ahead.ts). */
const READ_AHEAD = 8

/** Reads and parses every GuardKit file discovery found in one worktree; bad files become issues. */
export async function readWorktree(port: FsPort, rootAbs: string, wt: DiscoveredWorktree, limits: IngestLimits, fixture: RecordingManifest | null, issues: IngestIssue[]): Promise<WorktreeRecords> {
  const json: TextReadOptions = {maxBytes: limits.maxArtifactBytes, maxLineChars: null, whenTooLarge: 'skip'}
  const markdown: TextReadOptions = {maxBytes: limits.maxArtifactBytes, maxLineChars: limits.maxLineChars, whenTooLarge: 'skip'}
  // every read this function makes, in the order the loops below make them: read ahead, taken in that order
  const isJson = (f: {readonly name: string}) => f.name.endsWith('.json')
  const oldVersionsOf = (f: DiscoveredFile): DiscoveredFile[] =>
    (fixture?.versions.get(f.rel) ?? []).map((old) => ({abs: join(rootAbs, ...old.file.split('/')), rel: old.file, size: 0}))
  const plan: [DiscoveredFile, TextReadOptions][] = [
    ...wt.taskFolders.flatMap((folder) => folder.files.filter(isJson).flatMap((f) => [...oldVersionsOf(f), f].map((v) => [v, json] as [DiscoveredFile, TextReadOptions]))),
    ...wt.taskFiles.map((f) => [f, markdown] as [DiscoveredFile, TextReadOptions]),
    ...wt.featureFiles.map((f) => [f, json] as [DiscoveredFile, TextReadOptions]),
    ...(wt.configFile ? [[wt.configFile, json] as [DiscoveredFile, TextReadOptions]] : []),
  ]
  const take = readAhead(plan, async ([f, options]) => ({rel: f.rel, read: await readTextFile(port, f.abs, f.rel, options)}), READ_AHEAD)
  const read = async (f: {readonly rel: string}): Promise<string | null> => {
    const {rel, read: r} = await take()
    if (rel !== f.rel) throw new Error(`readWorktree: read ${rel} where ${f.rel} was expected`)
    issues.push(...r.issues)
    return r.text
  }

  const folders: ArtifactFolder[] = []
  for (const folder of wt.taskFolders) {
    const files: ArtifactFile[] = []
    const damaged: Omit<ArtifactFile, 'versions'>[] = []
    for (const f of folder.files) {
      if (!isJson(f)) {
        issues.push({file: f.rel, code: 'unknown-kind', severity: 'info', message: 'not a JSON artifact GuardKit writes: ignored'})
        continue
      }
      const {kind, turn} = classifyArtifactName(f.name)
      if (hasBadTurnNumber(f.name)) {
        issues.push({file: f.rel, code: 'bad-turn-number', severity: 'warning', message: 'GuardKit numbers turns from 1: a file name with turn 0 or a number beyond 2^53 names no turn; not read as one'})
      }
      const versions: ArtifactVersion[] = []
      for (const old of fixture?.versions.get(f.rel) ?? []) {
        const text = await read({rel: old.file})
        if (text === null) continue
        const parsed = parseArtifact(old.file, text, kind, old.seenAt)
        issues.push(...parsed.issues)
        if (parsed.version) versions.push(parsed.version)
      }
      const text = await read(f)
      if (text !== null) {
        const parsed = parseArtifact(f.rel, text, kind)
        issues.push(...parsed.issues)
        if (parsed.version) versions.push(parsed.version)
      }
      if (versions.length > 0) files.push({name: f.name, kind, turn, versions})
      else damaged.push({name: f.name, kind, turn})
    }
    folders.push({taskId: folder.taskId, dir: folder.rel, worktree: wt.rel, files, damaged})
  }

  const taskFiles: (ParsedTaskFile & {inWorktree: string})[] = []
  for (const f of wt.taskFiles) {
    const text = await read(f)
    if (text === null) continue
    const parsed = parseTaskFile(f.rel, text)
    issues.push(...parsed.issues)
    taskFiles.push({...parsed, inWorktree: f.inWorktree})
  }

  const features: ParsedFeature[] = []
  for (const f of wt.featureFiles) {
    const text = await read(f)
    if (text === null) continue
    const parsed = parseFeatureYaml(f.rel, text)
    issues.push(...parsed.issues)
    if (parsed.record) features.push(parsed)
  }

  let config: WorktreeRecords['config'] = null
  if (wt.configFile) {
    const text = await read(wt.configFile)
    if (text !== null) {
      const parsed = parseGuardkitConfig(wt.configFile.rel, text)
      issues.push(...parsed.issues)
      if (parsed.config) config = {file: wt.configFile.rel, yaml: parsed.config}
    }
  }
  return {rel: wt.rel, folders, taskFiles, features, config}
}
