import {createHash} from 'node:crypto'
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join, relative, sep} from 'node:path'
import {expect} from 'vitest'
import type {FsPort} from '../../src/ingest/fs/file-port.js'
import {buildAnalysisReport} from '../../src/render/json/build-analysis-report.js'
import type {Report} from '../../src/render/json/report.js'
import {analyzeRunPath} from '../../src/services/analyze.js'
import {toView} from '../golden/pipeline.js'

/**
 * Shared by the record tests (test/unit/commands/record.test.ts, test/unit/recording, the record and redaction properties, test/corpus/commands): the
 * analysis `analyze --json` prints, and what the round trip must keep — golden's view of it (recorded
 * outcomes and turns, per profile the outcome, stall turn, end turn and per turn criteria, signature,
 * fidelity and missing inputs, finding codes with their turns, the inferred profile), without the
 * ingest issues (a recording leaves behind the files ingest only reported on, e.g. README.md).
 */
export const TOOL = {name: 'guardkit-replay', version: 'test'}
const SILENT = {step: () => undefined, done: () => undefined}

export async function analyseToJson(runPath: string, port?: FsPort): Promise<Report> {
  return buildAnalysisReport(await analyzeRunPath(runPath, {names: [], with: [], without: [], tool: TOOL, progress: SILENT, ...(port === undefined ? {} : {port})}))
}

export function verdictsOf(report: Report): Omit<ReturnType<typeof toView>, 'ingestIssues'> {
  const {ingestIssues: _ignored, ...view} = toView(report)
  return view
}

/** Every file below `dir` (relative, `/`-separated) with its sha256: RUN must be the same before and after. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const abs = join(d, name)
      const st = statSync(abs)
      if (st.isDirectory()) walk(abs)
      else out[relative(dir, abs).split(sep).join('/')] = createHash('sha256').update(readFileSync(abs)).digest('hex')
    }
  }
  walk(dir)
  return out
}

/** Every byte of every file below `dir`, as latin1 text (to search for strings that must be gone). */
export function allBytes(dir: string): string {
  const parts: string[] = []
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const abs = join(d, name)
      if (statSync(abs).isDirectory()) walk(abs)
      else parts.push(`${relative(dir, abs)}\n${readFileSync(abs).toString('latin1')}`)
    }
  }
  walk(dir)
  return parts.join('\n')
}

/** The manifest of a recording, after checking that every file and version it lists has the sha256 and size it states. */
export function expectManifestHashes(recording: string): {files: {path: string}[]; versions: unknown[]; redacted: boolean; createdBy: string; tool: {version: string}} {
  const manifest = JSON.parse(readFileSync(join(recording, 'guardkit-replay.json'), 'utf8'))
  for (const f of [...manifest.files, ...manifest.versions.map((v: {file: string; sha256: string; bytes: number}) => ({path: v.file, sha256: v.sha256, bytes: v.bytes}))]) {
    const bytes = readFileSync(join(recording, f.path))
    expect(createHash('sha256').update(bytes).digest('hex'), f.path).toBe(f.sha256)
    expect(bytes.length).toBe(f.bytes)
  }
  return manifest
}

/** No user or host name is left in any byte of the recording (long names nowhere, short ones not as a path or an address). */
export function expectNoNames(recording: string, names: {users: string[]; hosts: string[]}): void {
  const bytes = allBytes(recording)
  for (const u of names.users) {
    expect(bytes, `/Users/${u}/`).not.toContain(`/Users/${u}/`)
    expect(bytes, `/home/${u}/`).not.toContain(`/home/${u}/`)
    expect(bytes, `${u}@`).not.toMatch(new RegExp(`(?<![A-Za-z0-9_.-])${u}@`))
    // a name long enough not to be a word is gone everywhere
    if (u.length >= 6) expect(bytes, u).not.toContain(u)
  }
  for (const h of names.hosts) {
    expect(bytes, `@${h}`).not.toMatch(new RegExp(`@${h}(?![A-Za-z0-9-])`))
    if (h.length >= 6) expect(bytes, h).not.toContain(h)
  }
}
