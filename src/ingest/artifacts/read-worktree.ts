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

/** One file's part of a worktree: what to do with its text (read ahead when `file` is set), or an issue to note. */
interface Step {
  readonly file?: DiscoveredFile
  readonly options?: TextReadOptions
  use(text: string | null): void
}

/** Reads in flight at once beyond the one being parsed (src/ingest/fs/read-ahead.ts). */
const READ_AHEAD = 8

/** Reads and parses every GuardKit file discovery found in one worktree; bad files become issues. */
export async function readWorktree(port: FsPort, rootAbs: string, wt: DiscoveredWorktree, limits: IngestLimits, fixture: RecordingManifest | null, issues: IngestIssue[]): Promise<WorktreeRecords> {
  const json: TextReadOptions = {maxBytes: limits.maxArtifactBytes, maxLineChars: null, whenTooLarge: 'skip'}
  const markdown: TextReadOptions = {maxBytes: limits.maxArtifactBytes, maxLineChars: limits.maxLineChars, whenTooLarge: 'skip'}
  const isJson = (f: {readonly name: string}) => f.name.endsWith('.json')
  // what to do with each file, in the order of the records (and of their issues); the files are read ahead below
  const steps: Step[] = []
  const noted = (issue: IngestIssue): Step => ({use: () => issues.push(issue)})

  const folders: ArtifactFolder[] = []
  for (const folder of wt.taskFolders) {
    const files: ArtifactFile[] = []
    const damaged: Omit<ArtifactFile, 'versions'>[] = []
    for (const f of folder.files) {
      if (!isJson(f)) {
        steps.push(noted({file: f.rel, code: 'unknown-kind', severity: 'info', message: 'not a JSON artifact GuardKit writes: ignored'}))
        continue
      }
      const {kind, turn} = classifyArtifactName(f.name)
      if (hasBadTurnNumber(f.name)) {
        steps.push(noted({file: f.rel, code: 'bad-turn-number', severity: 'warning', message: 'GuardKit numbers turns from 1: a file name with turn 0 or a number beyond 2^53 names no turn; not read as one'}))
      }
      const versions: ArtifactVersion[] = []
      const version = (parsed: ReturnType<typeof parseArtifact>) => {
        issues.push(...parsed.issues)
        if (parsed.version) versions.push(parsed.version)
      }
      for (const old of fixture?.versions.get(f.rel) ?? []) {
        steps.push({file: {abs: join(rootAbs, ...old.file.split('/')), rel: old.file, size: 0}, options: json, use: (text) => {
          if (text !== null) version(parseArtifact(old.file, text, kind, old.seenAt))
        }})
      }
      steps.push({file: f, options: json, use: (text) => {
        if (text !== null) version(parseArtifact(f.rel, text, kind))
        if (versions.length > 0) files.push({name: f.name, kind, turn, versions})
        else damaged.push({name: f.name, kind, turn})
      }})
    }
    folders.push({taskId: folder.taskId, dir: folder.rel, worktree: wt.rel, files, damaged})
  }

  const taskFiles: (ParsedTaskFile & {inWorktree: string})[] = []
  for (const f of wt.taskFiles) {
    steps.push({file: f, options: markdown, use: (text) => {
      if (text === null) return
      const parsed = parseTaskFile(f.rel, text)
      issues.push(...parsed.issues)
      taskFiles.push({...parsed, inWorktree: f.inWorktree})
    }})
  }

  const features: ParsedFeature[] = []
  for (const f of wt.featureFiles) {
    steps.push({file: f, options: json, use: (text) => {
      if (text === null) return
      const parsed = parseFeatureYaml(f.rel, text)
      issues.push(...parsed.issues)
      if (parsed.record) features.push(parsed)
    }})
  }

  let config: WorktreeRecords['config'] = null
  const configFile = wt.configFile
  if (configFile) {
    steps.push({file: configFile, options: json, use: (text) => {
      if (text === null) return
      const parsed = parseGuardkitConfig(configFile.rel, text)
      issues.push(...parsed.issues)
      if (parsed.config) config = {file: configFile.rel, yaml: parsed.config}
    }})
  }

  const reads = steps.filter((s): s is Step & Required<Pick<Step, 'file' | 'options'>> => s.file !== undefined && s.options !== undefined)
  const take = readAhead(reads, (s) => readTextFile(port, s.file.abs, s.file.rel, s.options), READ_AHEAD)
  for (const step of steps) {
    if (step.file === undefined) {
      step.use(null)
      continue
    }
    const read = await take()
    issues.push(...read.issues)
    step.use(read.text)
  }
  return {rel: wt.rel, folders, taskFiles, features, config}
}
