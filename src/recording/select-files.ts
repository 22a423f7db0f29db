import {join} from 'node:path'
import {parsePythonJson, type Discovery, type FsPort} from '../ingest/index.js'
import {RECORDING_MANIFEST_NAME, RecordingManifestV1Schema} from '../ingest/recording-manifest.js'
import {byCodePoint, checkRecordingPath, type ManifestGap} from './manifest.js'

/** A file of RUN that replay reads, and where it goes in the recording (its RUN-relative path). */
export interface SourceFile {
  readonly path: string
  readonly abs: string
  readonly role: 'log' | 'task-artifact' | 'task-file' | 'feature' | 'config'
}

/** An earlier version of an artifact, when RUN is itself a recording. */
export interface SourceVersion {
  readonly path: string
  readonly version: number
  readonly abs: string
  readonly seenAt: string | null
  readonly note: string | null
}

export interface RecordingSource {
  readonly files: readonly SourceFile[]
  readonly versions: readonly SourceVersion[]
  /** The gaps RUN's own manifest declared (RUN is a recording). */
  readonly gaps: readonly ManifestGap[]
}

/**
 * What a recording of RUN must hold: exactly the files discovery hands to ingest (docs/ingest.md) —
 * the logs, each worktree's task folders (every file in them), feature YAML, `.guardkit/config.yaml`
 * and task files (whole, with their turn history) — at their RUN-relative paths, so the recording
 * is read the way RUN was. A single-file RUN is its log, under its base name. When RUN is a
 * recording, its `versions/` come along, with their numbers, times and notes.
 */
export async function selectRecordingFiles(port: FsPort, discovery: Discovery): Promise<RecordingSource> {
  const files = new Map<string, SourceFile>()
  const add = (path: string, abs: string, role: SourceFile['role']) => {
    if (checkRecordingPath(path) === null && !files.has(path)) files.set(path, {path, abs, role})
  }
  for (const log of discovery.logs) add(log.rel, log.abs, 'log')
  for (const w of discovery.worktrees) {
    for (const folder of w.taskFolders) for (const f of folder.files) add(f.rel, f.abs, 'task-artifact')
    for (const f of w.featureFiles) add(f.rel, f.abs, 'feature')
    if (w.configFile !== null) add(w.configFile.rel, w.configFile.abs, 'config')
    for (const f of w.taskFiles) add(f.rel, f.abs, 'task-file')
  }
  const {versions, gaps} = discovery.fixture === null || discovery.root === null ? {versions: [], gaps: []} : await readSourceVersions(port, discovery.root.abs)
  return {files: [...files.values()].sort((a, b) => byCodePoint(a.path, b.path)), versions, gaps}
}

/** RUN's own manifest, raw (notes and version numbers included); what ingest could not check is left out. */
async function readSourceVersions(port: FsPort, root: string): Promise<{versions: SourceVersion[]; gaps: ManifestGap[]}> {
  try {
    const read = await port.readFile(join(root, RECORDING_MANIFEST_NAME), 64 * 1024 * 1024)
    const parsed = parsePythonJson(new TextDecoder().decode(read.bytes))
    if (!parsed.ok) return {versions: [], gaps: []}
    const manifest = RecordingManifestV1Schema.safeParse(parsed.value)
    if (!manifest.success) return {versions: [], gaps: []}
    const versions: SourceVersion[] = []
    for (const v of manifest.data.versions ?? []) {
      if (checkRecordingPath(v.path) !== null || checkRecordingPath(v.file) !== null) continue
      const abs = join(root, ...v.file.split('/'))
      if (versions.some((x) => x.path === v.path && x.version === v.version)) continue
      if ((await port.stat(abs).catch(() => null))?.kind !== 'file') continue
      versions.push({path: v.path, version: v.version, abs, seenAt: v.seenAt ?? null, note: v.note ?? null})
    }
    return {
      versions: versions.sort((a, b) => byCodePoint(a.path, b.path) || a.version - b.version),
      gaps: (manifest.data.gaps ?? []).map((g) => ({path: g.path, message: g.message})),
    }
  } catch {
    return {versions: [], gaps: []}
  }
}
