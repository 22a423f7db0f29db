import {afterEach, describe, expect, it} from 'vitest'
import {realpath} from 'node:fs/promises'
import {join} from 'node:path'
import {discoverRun, DEFAULT_LIMITS} from '../../../../src/ingest/discover.js'
import {createNodeFilePort} from '../../../../src/ingest/fs/node-file-port.js'
import {UsageError} from '../../../../src/shared/errors.js'
import {ingestPath, makeTree, removeTree} from '../../../helpers/run-helpers.js'

const port = createNodeFilePort()
const LOG = [
  'richardwoollcott@Mac guardkit % guardkit autobuild feature FEAT-X',
  'INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-X (max_turns=5)',
  'INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-X-001 (resume=False)',
  'INFO:guardkit.orchestrator.autobuild:Executing turn 1/5',
].join('\n')
const NOTE = '# Notes\n\nThe run printed `INFO:guardkit.orchestrator.autobuild:Executing turn 1/5` and stopped.\n'
const JSON1 = '{"task_id": "TASK-X-001", "turn": 1}'
/** A maintainers' review (docs/ingest.md "What RUN may be"): prose, headings, records quoted in fences, from two runs. */
const REVIEW = [
  '# Canary smoke runs',
  '',
  '## F2: design phase',
  '',
  'The design phase went through the SDK on every smoke:',
  '',
  '```',
  'INFO:guardkit.orchestrator.quality_gates.task_work_interface:Executing design phase for TASK-X-001 ...',
  '```',
  '',
  '## F7: the stall guard',
  '',
  '> Smoke v7, stderr:',
  '',
  '```',
  'WARNING:guardkit.orchestrator.worktree_checkpoints:Context pollution detected: 3 consecutive test failures in turns [1, 2, 3]',
  'ERROR:guardkit.orchestrator.autobuild:Unrecoverable stall detected for TASK-X-001: context pollution detected but no passing checkpoint exists.',
  'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-X-001, decision=unrecoverable_stall, turns=3',
  '```',
  '',
].join('\n')

const roots: string[] = []
async function tree(files: Parameters<typeof makeTree>[0]): Promise<string> {
  const root = await makeTree(files)
  roots.push(root)
  return root
}
afterEach(async () => {
  for (const r of roots.splice(0)) await removeTree(r)
})

describe('discoverRun: the forms of RUN', () => {
  it('reads `-` as a log on stdin', async () => {
    const d = await discoverRun(port, '-')
    expect(d.input).toBe('stdin')
    expect(d.logs).toEqual([])
  })

  it('takes a single file as a log named by its base name', async () => {
    const root = await tree({'run_2.log': LOG})
    const d = await discoverRun(port, join(root, 'run_2.log'))
    expect(d.input).toBe('file')
    expect(d.logs.map((l) => l.rel)).toEqual(['run_2.log'])
    expect(d.worktrees).toEqual([])
  })

  it('reads a log given through a symbolic link at its target, under the name given (files are opened with O_NOFOLLOW)', async () => {
    const root = await tree({'runs/run_2.log': LOG, 'latest.log': {symlink: 'runs/run_2.log'}})
    const d = await discoverRun(port, join(root, 'latest.log'))
    expect(d.logs.map((l) => [l.rel, l.abs])).toEqual([['latest.log', join(await realpath(root), 'runs/run_2.log')]])
    const record = await ingestPath(join(root, 'latest.log'))
    expect(record.ingestIssues.filter((i) => i.severity === 'error')).toEqual([])
    expect(record.tasks.map((t) => t.taskId)).toEqual(['TASK-X-001'])
  })

  it('finds logs (.log, .md, .txt holding AutoBuild output) in a directory, and skips notes that only quote a record', async () => {
    const root = await tree({'a.log': LOG, 'b.md': LOG, 'sub/c.txt': LOG, 'README.md': NOTE, 'notes.txt': 'hello', 'data.json': JSON1})
    const d = await discoverRun(port, root)
    expect(d.logs.map((l) => l.rel)).toEqual(['a.log', 'b.md', 'sub/c.txt'])
    expect(d.issues).toEqual([expect.objectContaining({file: 'README.md', code: 'not-a-log', severity: 'info'})])
  })

  it('says a review that quotes records in its code blocks is no capture, in a folder and given by name, and reads a capture pasted into Markdown', async () => {
    const root = await tree({'review.md': REVIEW, 'smoke-v7.log': REVIEW, 'issue.md': `# Build log\n\n\`\`\`\n${LOG}\n\`\`\`\n`})
    const d = await discoverRun(port, root)
    expect(d.logs.map((l) => l.rel)).toEqual(['issue.md'])
    const issue = {code: 'not-a-log', severity: 'warning', line: 8,
      message: 'a Markdown document that quotes 4 GuardKit log records in code blocks among its prose (lines 8–18), not a captured AutoBuild run: excerpts, perhaps of several runs, are not read as one run'}
    expect(d.issues).toEqual([{file: 'review.md', ...issue}, {file: 'smoke-v7.log', ...issue}])
    // whatever its name: the user named it, but it is still no capture
    const direct = await discoverRun(port, join(root, 'smoke-v7.log'))
    expect(direct.logs).toEqual([])
    expect(direct.issues).toEqual([{file: 'smoke-v7.log', ...issue}])
  })

  it('recognises a worktree or a copy of one: autobuild folders, task files, feature files, config', async () => {
    const root = await tree({
      '.guardkit/autobuild/TASK-X-001/player_turn_1.json': JSON1,
      '.guardkit/features/FEAT-X.yaml': 'id: FEAT-X\ntasks: []\n',
      '.guardkit/config.yaml': 'a: 1\n',
      'tasks/backlog/x/TASK-X-001-do-it.md': '---\nid: TASK-X-001\n---\n',
      'tasks/backlog/x/notes.md': 'not a task',
    })
    const d = await discoverRun(port, root)
    expect(d.worktrees).toHaveLength(1)
    const wt = d.worktrees[0]!
    expect(wt.rel).toBe('.')
    expect(wt.taskFolders.map((f) => [f.taskId, f.rel, f.files.map((x) => x.name)])).toEqual([
      ['TASK-X-001', '.guardkit/autobuild/TASK-X-001', ['player_turn_1.json']],
    ])
    expect(wt.featureFiles.map((f) => f.rel)).toEqual(['.guardkit/features/FEAT-X.yaml'])
    expect(wt.configFile?.rel).toBe('.guardkit/config.yaml')
    expect(wt.taskFiles.map((f) => [f.rel, f.inWorktree])).toEqual([['tasks/backlog/x/TASK-X-001-do-it.md', 'tasks/backlog/x/TASK-X-001-do-it.md']])
  })

  it('finds the worktrees of a repository root under .guardkit/worktrees/*', async () => {
    const root = await tree({
      '.guardkit/features/FEAT-X.yaml': 'id: FEAT-X\ntasks: []\n',
      '.guardkit/worktrees/FEAT-X/.guardkit/autobuild/TASK-X-001/coach_turn_1.json': JSON1,
      '.guardkit/worktrees/FEAT-Y/.guardkit/autobuild/TASK-Y-001/coach_turn_1.json': JSON1,
      'src/app.py': 'print(1)\n',
    })
    const d = await discoverRun(port, root)
    expect(d.worktrees.map((w) => w.rel)).toEqual(['.', '.guardkit/worktrees/FEAT-X', '.guardkit/worktrees/FEAT-Y'])
    expect(d.worktrees[1]!.taskFolders[0]!.rel).toBe('.guardkit/worktrees/FEAT-X/.guardkit/autobuild/TASK-X-001')
  })

  it('finds a worktree copy and logs side by side below RUN', async () => {
    const root = await tree({'logs/run.log': LOG, 'copy/.guardkit/autobuild/TASK-X-001/coach_turn_1.json': JSON1})
    const d = await discoverRun(port, root)
    expect(d.logs.map((l) => l.rel)).toEqual(['logs/run.log'])
    expect(d.worktrees.map((w) => w.rel)).toEqual(['copy'])
  })

  it('reports an empty task folder and an autobuild folder without task folders', async () => {
    const root = await tree({'.guardkit/autobuild/TASK-X-001': {dir: true}, '.guardkit/autobuild/TASK-X-002/sub': {dir: true}})
    const d = await discoverRun(port, root)
    expect(d.issues).toEqual([
      expect.objectContaining({file: '.guardkit/autobuild/TASK-X-001', code: 'empty-dir', severity: 'info'}),
      expect.objectContaining({file: '.guardkit/autobuild/TASK-X-002/sub', code: 'ignored-file', severity: 'info'}),
      expect.objectContaining({file: '.guardkit/autobuild/TASK-X-002', code: 'empty-dir', severity: 'info'}),
    ])
    const empty = await tree({'.guardkit/autobuild/README': 'x', 'tasks/backlog/.keep': ''})
    const e = await discoverRun(port, empty)
    expect(e.issues).toContainEqual(expect.objectContaining({file: '.guardkit/autobuild', code: 'empty-dir'}))
  })

  it('returns nothing for an empty directory (the service then exits 2)', async () => {
    const root = await tree({})
    const d = await discoverRun(port, root)
    expect([d.logs, d.worktrees, d.issues]).toEqual([[], [], []])
  })

  it('stops searching after maxEntries and says so', async () => {
    const files = Object.fromEntries(Array.from({length: 30}, (_, i) => [`d${i}/f.txt`, 'x']))
    const root = await tree(files)
    const d = await discoverRun(port, root, {...DEFAULT_LIMITS, maxEntries: 10})
    expect(d.issues).toContainEqual(expect.objectContaining({code: 'search-limit', severity: 'warning'}))
  })

  it('searches logs no deeper than maxSearchDepth', async () => {
    const root = await tree({'a/b/c/deep.log': LOG, 'a/b/shallow.log': LOG})
    const d = await discoverRun(port, root)
    expect(d.logs.map((l) => l.rel)).toEqual(['a/b/shallow.log'])
  })
})

describe('discoverRun: usage errors', () => {
  it('a missing RUN is a usage error (exit 2), not a crash', async () => {
    await expect(discoverRun(port, '/nonexistent/run/dir')).rejects.toBeInstanceOf(UsageError)
    await expect(discoverRun(port, '/nonexistent/run/dir')).rejects.toThrow(/RUN not found/)
  })
})

describe('discoverRun: symlinks', () => {
  it('reads a file linked from inside RUN at its target, under the link\'s name', async () => {
    const coach = '{"task_id": "TASK-X-001", "turn": 1, "decision": "approve"}'
    // .store is hidden, so the targets are found only through the links
    const root = await tree({'.store/real.log': LOG, '.store/c.json': coach, 'run.log': {symlink: '.store/real.log'},
      '.guardkit/autobuild/TASK-X-001/coach_turn_1.json': {symlink: '../../../.store/c.json'}})
    const d = await discoverRun(port, root)
    expect(d.issues).toEqual([])
    expect(d.logs.map((l) => l.rel)).toEqual(['run.log'])
    const record = await ingestPath(root)
    expect(record.ingestIssues.filter((i) => i.file !== 'run.log')).toEqual([])
    expect(record.tasks[0]?.turns[0]?.artifacts.coachReport?.file).toBe('.guardkit/autobuild/TASK-X-001/coach_turn_1.json')
  })

  it('does not follow a symlink to a target outside RUN, and reports it', async () => {
    const outside = await tree({'secret.log': LOG, 'wt/.guardkit/autobuild/TASK-Z-001/coach_turn_1.json': JSON1})
    const root = await tree({
      'run.log': LOG,
      'escape.log': {symlink: join(outside, 'secret.log')},
      'escape-dir': {symlink: join(outside, 'wt')},
    })
    const d = await discoverRun(port, root)
    expect(d.logs.map((l) => l.rel)).toEqual(['run.log'])
    expect(d.worktrees).toEqual([])
    expect(d.issues).toEqual([
      expect.objectContaining({file: 'escape-dir', code: 'symlink-outside', severity: 'warning'}),
      expect.objectContaining({file: 'escape.log', code: 'symlink-outside', severity: 'warning'}),
    ])
  })

  it('follows a symlink inside RUN, reports a broken one, and survives a loop', async () => {
    const root = await tree({
      'real/run.log': LOG,
      'alias': {symlink: 'real'},
      'loop/self': {symlink: '..'},
      'dangling.log': {symlink: 'missing.log'},
    })
    const d = await discoverRun(port, root)
    // `alias` is met first (names in code-point order) and leads to `real`, which is then not walked twice
    expect(d.logs.map((l) => l.rel)).toEqual(['alias/run.log'])
    expect(d.issues).toContainEqual(expect.objectContaining({file: 'dangling.log', code: 'symlink-broken'}))
  })
})
