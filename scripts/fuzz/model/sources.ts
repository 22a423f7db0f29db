import {lstatSync, readdirSync, readFileSync, readlinkSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

/**
 * What the authored fixtures (fixtures/runs/) offer the generators: whole runs to start from, real log
 * lines, real artifacts of every kind, task files and feature YAML. Read once, at start-up.
 */

export const FIXTURES_DIR = fileURLToPath(new URL('../../../fixtures/runs/', import.meta.url))

export type FixtureEntry = {readonly type: 'file'; readonly path: string} | {readonly type: 'symlink'; readonly path: string; readonly target: string}

export interface FixtureRun {
  readonly name: string
  readonly entries: readonly FixtureEntry[]
}

function walk(dir: string, rel: string, out: FixtureEntry[]): void {
  for (const name of readdirSync(dir).sort()) {
    const abs = `${dir}/${name}`
    const path = rel === '' ? name : `${rel}/${name}`
    const st = lstatSync(abs)
    if (st.isSymbolicLink()) out.push({type: 'symlink', path, target: readlinkSync(abs)})
    else if (st.isDirectory()) walk(abs, path, out)
    else if (st.isFile()) out.push({type: 'file', path})
  }
}

/** Every authored run (the generator scripts of `_authoring` are not a run). */
export const FIXTURE_RUNS: readonly FixtureRun[] = readdirSync(FIXTURES_DIR)
  .filter((n) => !n.startsWith('_') && !n.startsWith('.') && lstatSync(`${FIXTURES_DIR}${n}`).isDirectory())
  .sort()
  .map((name) => {
    const entries: FixtureEntry[] = []
    walk(`${FIXTURES_DIR}${name}`, '', entries)
    return {name, entries}
  })

const allFiles = FIXTURE_RUNS.flatMap((r) => r.entries.filter((e) => e.type === 'file').map((e) => `${r.name}/${e.path}`))

const cache = new Map<string, Uint8Array>()
/** Bytes of a fixture file by its path below fixtures/runs/ (empty if it is gone). */
export function readFixture(file: string): Uint8Array {
  let bytes = cache.get(file)
  if (bytes === undefined) {
    try {
      bytes = new Uint8Array(readFileSync(`${FIXTURES_DIR}${file}`))
    } catch {
      bytes = new Uint8Array(0)
    }
    cache.set(file, bytes)
  }
  return bytes
}

export const FIXTURE_LOGS = allFiles.filter((f) => f.endsWith('.log'))
export const FIXTURE_ARTIFACTS = allFiles.filter((f) => f.includes('/.guardkit/autobuild/') && f.endsWith('.json'))
export const FIXTURE_TASK_FILES = allFiles.filter((f) => /\/tasks\/.*\.md$/.test(f))
export const FIXTURE_FEATURES = allFiles.filter((f) => /\/\.guardkit\/features\/.*\.ya?ml$/.test(f))
export const FIXTURE_CONFIGS = allFiles.filter((f) => f.endsWith('/.guardkit/config.yaml'))
export const FIXTURE_NOTES = allFiles.filter((f) => /\/(README\.md|expected\.yaml)$/.test(f))

/** Distinct lines of the fixture logs: real shapes for the line generators. */
export const REAL_LINES: readonly string[] = [
  ...new Set(FIXTURE_LOGS.flatMap((f) => new TextDecoder().decode(readFixture(f)).split('\n')).filter((l) => l.length <= 4096)),
]

/** Task ids the fixtures use (so generated files join real tasks). */
export const FIXTURE_TASK_IDS: readonly string[] = [
  ...new Set(FIXTURE_ARTIFACTS.map((f) => /\/\.guardkit\/autobuild\/(TASK-[^/]+)\//.exec(f)?.[1]).filter((x): x is string => x !== undefined)),
].sort()

/** Parsed real artifacts by file-name kind (`player_turn`, `coach_turn`, …), for value mutations. */
export const ARTIFACT_BASES: ReadonlyMap<string, readonly unknown[]> = (() => {
  const out = new Map<string, unknown[]>()
  for (const f of FIXTURE_ARTIFACTS) {
    const kind = artifactKindOf(f.slice(f.lastIndexOf('/') + 1))
    try {
      const json: unknown = JSON.parse(new TextDecoder().decode(readFixture(f)))
      out.set(kind, [...(out.get(kind) ?? []), json])
    } catch {
      // a deliberately damaged fixture file is no base
    }
  }
  return out
})()

/** `player_turn_3.json` → `player_turn`; names without a turn number keep their stem. */
export function artifactKindOf(name: string): string {
  return name.replace(/\.json$/, '').replace(/_\d+$/, '')
}
