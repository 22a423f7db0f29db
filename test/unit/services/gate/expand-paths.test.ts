import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {expandCorpus} from '../../../../src/services/gate/expand-paths.js'
import {loadCorpusExpectations} from '../../../../src/services/gate/corpus-expectations.js'
import {expandGlob, globBase, segmentRegex} from '../../../../src/services/gate/glob.js'
import {UsageError} from '../../../../src/shared/errors.js'

/**
 * corpus/
 *   expectations.yaml
 *   rec-a/guardkit-replay.json        a recording: one run
 *   wt-b/.guardkit/…                  a worktree copy: one run
 *   logs/x.log, logs/y.log, logs/notes.md   a folder of logs: two runs (*.log)
 *   nested/deeper/run-c/expected.yaml a fixture, two levels down
 *   plain/run.txt                     a folder of other files: one run
 *   _authoring/z.log, .hidden/w.log   skipped
 */
function corpus(): string {
  const root = mkdtempSync(join(tmpdir(), 'gr-corpus-'))
  const file = (rel: string, text = 'x') => {
    mkdirSync(join(root, rel, '..'), {recursive: true})
    writeFileSync(join(root, rel), text)
  }
  file('corpus/expectations.yaml', 'runs:\n  rec-a:\n    TASK-A: {fixed: approved}\n  gone:\n    TASK-B: {fixed: approved}\n')
  file('corpus/rec-a/guardkit-replay.json')
  file('corpus/rec-a/run.log')
  file('corpus/wt-b/.guardkit/autobuild/TASK-B/coach_turn_1.json')
  file('corpus/logs/x.log')
  file('corpus/logs/y.log')
  file('corpus/logs/notes.md')
  file('corpus/nested/deeper/run-c/expected.yaml')
  file('corpus/nested/deeper/run-c/run.log')
  file('corpus/plain/run.txt')
  file('corpus/_authoring/z.log')
  file('corpus/.hidden/w.log')
  return root
}

describe('PATH expansion', () => {
  it('a corpus folder: recordings, worktree copies, fixtures are runs; other folders are searched; their *.log files are runs', async () => {
    const root = corpus()
    const runs = await expandCorpus(['corpus'], root)
    expect(runs.map((r) => r.path)).toEqual(['corpus/logs/x.log', 'corpus/logs/y.log', 'corpus/nested/deeper/run-c', 'corpus/plain', 'corpus/rec-a', 'corpus/wt-b'])
    expect(new Set(runs.map((r) => r.stopAt))).toEqual(new Set([join(root, 'corpus')]))
  })

  it('the same runs whatever the order or repetition of the arguments; globs expanded here when the shell did not', async () => {
    const root = corpus()
    const a = await expandCorpus(['corpus/wt-b', 'corpus/logs/*.log', 'corpus/rec-a', 'corpus/wt-b'], root)
    const b = await expandCorpus(['corpus/rec-a', 'corpus/logs/y.log', 'corpus/logs/x.log', 'corpus/wt-b'], root)
    expect(a.map((r) => r.path)).toEqual(b.map((r) => r.path))
    // an explicit glob is taken as written: `_` folders match, dot folders do not
    expect((await expandCorpus(['corpus/**/*.log'], root)).map((r) => r.path)).toEqual(['corpus/_authoring/z.log', 'corpus/logs/x.log', 'corpus/logs/y.log', 'corpus/nested/deeper/run-c/run.log', 'corpus/rec-a/run.log'])
  })

  it('a PATH that does not exist, or a glob that matches nothing, is a usage error', async () => {
    const root = corpus()
    await expect(expandCorpus(['corpus/nope'], root)).rejects.toThrow(UsageError)
    await expect(expandCorpus(['corpus/*.nope'], root)).rejects.toThrow(/No file or directory matches/)
  })

  it('expectations.yaml: the nearest one from the run up to the PATH root; entries for runs not in the corpus are reported', async () => {
    const root = corpus()
    const runs = await expandCorpus(['corpus'], root)
    const e = await loadCorpusExpectations(runs, root)
    expect(e.files).toEqual(['corpus/expectations.yaml'])
    expect(e.forRun(join(root, 'corpus/rec-a'))).toEqual([expect.objectContaining({taskId: 'TASK-A'})])
    expect(e.forRun(join(root, 'corpus/wt-b'))).toEqual([])
    expect(e.problems).toEqual([{severity: 'warning', path: 'corpus/expectations.yaml', message: expect.stringContaining('corpus/gone, which is not in the corpus')}])
    // a run given on its own still reads its corpus folder's file
    const one = await expandCorpus(['corpus/rec-a'], root)
    expect((await loadCorpusExpectations(one, root)).forRun(join(root, 'corpus/rec-a'))).toHaveLength(1)
  })
})

describe('glob', () => {
  it('* ? [..] within a segment, ** across folders; dot files only when asked', async () => {
    expect(segmentRegex('*.log').test('a.log')).toBe(true)
    expect(segmentRegex('run-?').test('run-1')).toBe(true)
    expect(segmentRegex('run-[0-9]').test('run-a')).toBe(false)
    expect(segmentRegex('run-[!0-9]').test('run-a')).toBe(true)
    expect(segmentRegex('a.b').test('axb')).toBe(false)
    expect(globBase('corpus/**/*.log')).toBe('corpus')
    expect(globBase('*.log')).toBe('.')
    const root = corpus()
    expect(await expandGlob('corpus/*/*.log', root)).toEqual(['corpus/_authoring/z.log', 'corpus/logs/x.log', 'corpus/logs/y.log', 'corpus/rec-a/run.log'])
    expect(await expandGlob('corpus/.*/*.log', root)).toEqual(['corpus/.hidden/w.log'])
  })
})
