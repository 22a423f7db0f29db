import {realpath, stat} from 'node:fs/promises'
import {basename, dirname, isAbsolute, relative, resolve, sep} from 'node:path'
import {UsageError} from '../../shared/errors.js'
import type {CorpusRun} from './expand-paths.js'
import {neutralised} from '../../shared/neutralise.js'

/**
 * The gate never writes into what it analyses (docs/contributing.md: RUN is never written to): a
 * `--junit` or `--html` file inside a run, or inside a folder given as PATH, would change the
 * corpus — and what the next gate over it reads. Checked before anything is replayed, so a long
 * gate does not fail at its end. Symbolic links are followed on both sides; an output that does
 * not exist yet is placed by its nearest existing parent. (Globs are left to their matches: the
 * base of `'*.log'` is the working directory, where reports usually go.)
 */
export async function checkOutputsOutsideCorpus(
  paths: readonly string[],
  runs: readonly CorpusRun[],
  outputs: readonly {flag: string; file: string | undefined}[],
  cwd: string,
): Promise<void> {
  const wanted = outputs.filter((o): o is {flag: string; file: string} => o.file !== undefined)
  if (wanted.length === 0) return
  const targets = await Promise.all(wanted.map(async (o) => ({...o, abs: await realOfMaybeMissing(resolve(cwd, o.file))})))
  const folders = (await Promise.all(paths.map(async (p) => ((await stat(resolve(cwd, p)).catch(() => null))?.isDirectory() ? [{shown: p, abs: resolve(cwd, p)}] : [])))).flat()
  const analysed = [...runs.map((r) => ({shown: `the run ${r.path}`, abs: r.abs})), ...folders.map((f) => ({shown: `the PATH ${f.shown}`, abs: f.abs}))]
  for (const a of analysed) {
    const real = await realpath(a.abs).catch(() => a.abs)
    const t = targets.find((x) => x.abs === real || isWithin(x.abs, real))
    if (t !== undefined) {
      throw new UsageError(neutralised`${t.flag} ${t.file} is inside ${a.shown}: the gate never writes into what it analyses.`, `Write it outside the corpus, e.g. ${t.flag} ../${basename(t.file)}.`)
    }
  }
}

function isWithin(child: string, parent: string): boolean {
  const rel = relative(parent, child)
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}

/** The real path of a path that may not exist yet: its nearest existing parent's, plus the rest. */
async function realOfMaybeMissing(abs: string): Promise<string> {
  const rest: string[] = []
  let dir = abs
  for (;;) {
    try {
      return resolve(await realpath(dir), ...rest)
    } catch {
      const up = dirname(dir)
      if (up === dir) return abs
      rest.unshift(basename(dir))
      dir = up
    }
  }
}
