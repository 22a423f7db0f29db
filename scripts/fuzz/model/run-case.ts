import fc from 'fast-check'
import {FLAG_IDS} from '../../../src/logic/changes.js'
import {artifactContent, configContent, damages, featureContent, logContent, strayContent, taskFileContent} from './contents.js'
import {artifactName, featureName, hostileName, logName, runName, strayDir, taskFileName, taskId, taskState, worktreeRoot} from './names.js'
import {artifactKindOf, FIXTURE_RUNS} from './sources.js'
import type {Content, Entry, ExtraCommand, RunArg, RunCase} from './types.js'

/**
 * A RUN directory: maybe an authored run (fixtures/runs/) as the base, some of its files dropped or
 * damaged, placed at RUN's top or below it, plus generated entries — logs, artifacts, task files,
 * feature and config YAML, stray and binary files, empty files and folders, symbolic links inside and
 * pointing outside, FIFOs, crowded folders, a recording manifest. Later entries replace earlier ones
 * at the same path (materialise.ts).
 */

const join = (dir: string, name: string) => (dir === '' ? name : dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`)

/** An authored run's files: each dropped (shrinking goes there first), kept, or damaged. */
const fixtureBase: fc.Arbitrary<Entry[]> = fc.oneof(
  {withCrossShrink: true},
  {weight: 1, arbitrary: fc.constant<Entry[]>([])},
  {
    weight: 4,
    arbitrary: fc.tuple(fc.constantFrom(...FIXTURE_RUNS), worktreeRoot).chain(([run, root]) =>
      fc.tuple(
        ...run.entries.map((e) =>
          fc.oneof(
            {withCrossShrink: true},
            {weight: 1, arbitrary: fc.constant<Entry | null>(null)},
            {
              weight: 8,
              arbitrary: fc.constant<Entry | null>(
                e.type === 'symlink' ? {type: 'symlink', path: root + e.path, target: e.target} : {type: 'file', path: root + e.path, content: {kind: 'fixture', file: `${run.name}/${e.path}`}, damage: []},
              ),
            },
            {
              weight: e.type === 'file' ? 2 : 0,
              arbitrary: damages.map((d): Entry | null => ({type: 'file', path: root + e.path, content: {kind: 'fixture', file: `${run.name}/${e.path}`}, damage: d})),
            },
          ),
        ),
      ).map((es) => es.filter((e): e is Entry => e !== null)),
    ),
  },
)

const file = (path: fc.Arbitrary<string>, content: fc.Arbitrary<Content>) =>
  fc.tuple(path, content, damages).map(([p, c, d]): Entry => ({type: 'file', path: p, content: c, damage: d}))

const taskDir = fc.tuple(worktreeRoot, taskId).map(([root, id]) => `${root}.guardkit/autobuild/${id}`)

const artifactEntry = fc
  .tuple(taskDir, artifactName)
  .chain(([dir, name]) => fc.tuple(artifactContent(artifactKindOf(name)), damages).map(([c, d]): Entry => ({type: 'file', path: `${dir}/${name}`, content: c, damage: d})))

/** Places a link can sit and texts it can hold: inside RUN, outside it, broken, loops. */
const symlinkEntry = fc
  .tuple(
    fc.oneof(
      fc.constantFrom('run.log', 'logs/link.log', 'link', 'tasks', '.guardkit', '.guardkit/autobuild', 'loop', 'a/b/up'),
      taskDir.map((d) => `${d}/player_turn_1.json`),
      taskDir,
      fc.tuple(worktreeRoot, taskState).map(([r, s]) => `${r}tasks/${s}/TASK-X-001-link.md`),
      hostileName(fc.constantFrom('link', 'run.log')),
    ),
    fc.oneof(
      fc.constantFrom('.', '..', '../..', '<run>', '<run>/run.log', 'run.log', '../run.log', '../../run.log', '../TASK-X-001/player_turn_1.json', '.guardkit', 'tasks'),
      fc.constantFrom('<outside>/secret.log', '<outside>/worktree', '<outside>/worktree/.guardkit/autobuild/TASK-X-001/player_turn_1.json', '<outside>', '/etc/hosts', '/dev/zero', '/dev/urandom', '/proc/self/environ', '/'),
      fc.constantFrom('nonexistent', 'missing/x.json', '', 'loop', 'link', ' '),
    ),
  )
  .map(([path, target]): Entry => ({type: 'symlink', path, target}))

const manifestPath = fc.oneof(
  fc.constantFrom('run.log', '.guardkit/autobuild/TASK-X-001/player_turn_1.json', 'tasks/backlog/TASK-X-001-some-task.md', 'versions/player/1'),
  fc.constantFrom('../outside.log', '/etc/passwd', '', 'run.log/', 'a\0b', '..', 'versions', '~/x', 'C:\\run.log'),
)
const manifestEntry = fc
  .tuple(
    fc.array(fc.record({path: manifestPath, sha: fc.constantFrom('auto', 'auto', 'stale', 'not-a-sha', '')}), {maxLength: 4}),
    fc.array(fc.record({path: manifestPath, file: manifestPath, version: fc.constantFrom<unknown>(1, 2, 0, -1, 'one', null, 1.5), sha: fc.constantFrom<string | null>('auto', 'stale', null)}), {maxLength: 3}),
    fc.array(fc.record({path: manifestPath, message: fc.string({maxLength: 20})}), {maxLength: 2}),
    fc.oneof({weight: 4, arbitrary: fc.constant({})}, {weight: 1, arbitrary: fc.constantFrom<Record<string, unknown>>({format: 'other'}, {formatVersion: 2}, {files: 'run.log'}, {tool: null}, {versions: {}})}),
    damages,
  )
  .map(([files, versions, gaps, extra, d]): Entry => ({type: 'file', path: 'guardkit-replay.json', content: {kind: 'manifest', files, versions, gaps, extra}, damage: d}))

const anyPath = fc.oneof(strayDir, taskDir, fc.tuple(worktreeRoot, taskState).map(([r, s]) => `${r}tasks/${s}`)).chain((dir) =>
  fc.oneof(artifactName, logName, taskFileName, hostileName(fc.constantFrom('x', 'file'))).map((name) => join(dir, name)),
)

export const entry: fc.Arbitrary<Entry> = fc.oneof(
  {weight: 6, arbitrary: file(fc.tuple(strayDir, logName).map(([d, n]) => join(d, n)), logContent)},
  {weight: 8, arbitrary: artifactEntry},
  {weight: 3, arbitrary: file(fc.tuple(worktreeRoot, taskState, taskFileName).map(([r, s, n]) => `${r}tasks/${s}/${n}`), taskFileContent)},
  {weight: 2, arbitrary: file(fc.tuple(worktreeRoot, featureName).map(([r, n]) => `${r}.guardkit/features/${n}`), featureContent)},
  {weight: 1, arbitrary: file(worktreeRoot.map((r) => `${r}.guardkit/config.yaml`), configContent)},
  {weight: 3, arbitrary: file(anyPath, strayContent)},
  {weight: 1, arbitrary: fc.oneof(taskDir, fc.constantFrom('.guardkit/autobuild', '.guardkit', 'tasks', 'tasks/backlog', 'logs', '.guardkit/worktrees/FEAT-X')).map((path): Entry => ({type: 'dir', path}))},
  {weight: 3, arbitrary: symlinkEntry},
  {weight: 1, arbitrary: manifestEntry},
  {weight: 1, arbitrary: fc.constantFrom('run.log', 'logs/run.log', '.guardkit/autobuild/TASK-X-001/player_turn_1.json', 'tasks/backlog/TASK-X-001.md', 'guardkit-replay.json').map((path): Entry => ({type: 'fifo', path}))},
  {weight: 1, arbitrary: fc.tuple(fc.oneof(strayDir, taskDir), fc.constantFrom('f', 'player_turn_', 'x.log', ''), fc.integer({min: 50, max: 800})).map(([path, prefix, count]): Entry => ({type: 'many', path, prefix, count}))},
  // unreadable (without effect when the fuzzer runs as root, as CI does)
  {weight: 1, arbitrary: fc.tuple(anyPath, fc.constantFrom(0o000, 0o200, 0o111)).map(([path, mode]): Entry => ({type: 'file', path, content: {kind: 'pieces', pieces: 'INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-X\n'}, damage: [], mode}))},
  {weight: 1, arbitrary: fc.tuple(fc.oneof(strayDir, taskDir), fc.constantFrom(0o000, 0o311)).map(([path, mode]): Entry => ({type: 'dir', path: path === '' ? 'locked' : path, mode}))},
)

const profileName = fc.constantFrom('legacy', 'fixed', 'pre-acr', 'as-run:351c53fa', 'as-run:51222879', 'as-run:c5a83a15', 'as-run:deadbeef', 'no-such-profile', '')
const flagId = fc.oneof({weight: 5, arbitrary: fc.constantFrom(...FLAG_IDS)}, {weight: 1, arbitrary: fc.constantFrom('noSuchFlag', '', '--json')})
/** Mostly null: the first task analyze found (an explain that gets past the task lookup). */
const optionalTask = fc.oneof({withCrossShrink: true}, {weight: 2, arbitrary: fc.constant(null)}, {weight: 1, arbitrary: taskId})

export const extraCommand: fc.Arbitrary<ExtraCommand | null> = fc.oneof(
  {withCrossShrink: true},
  {weight: 6, arbitrary: fc.constant(null)},
  {weight: 1, arbitrary: fc.record({cmd: fc.constant('analyze' as const), format: fc.constantFrom('text' as const, 'md' as const), verbose: fc.boolean()})},
  {weight: 1, arbitrary: fc.constant({cmd: 'default' as const})},
  {weight: 1, arbitrary: fc.record({cmd: fc.constant('analyze-profiles' as const), profiles: fc.array(profileName, {maxLength: 2}), with: fc.array(flagId, {maxLength: 2}), without: fc.array(flagId, {maxLength: 1})})},
  {weight: 2, arbitrary: fc.record({cmd: fc.constant('explain' as const), task: optionalTask, turn: fc.option(fc.integer({min: 1, max: 5}), {nil: null}), json: fc.boolean()})},
  {weight: 1, arbitrary: fc.record({cmd: fc.constant('whatif' as const), task: optionalTask, json: fc.boolean()})},
)

export const runArg: fc.Arbitrary<RunArg> = fc.oneof(
  {withCrossShrink: true},
  {weight: 12, arbitrary: fc.constant<RunArg>({as: 'absolute'})},
  {weight: 1, arbitrary: fc.constant<RunArg>({as: 'symlink'})},
  {weight: 2, arbitrary: fc.boolean().map((dotSlash): RunArg => ({as: 'relative', dotSlash}))},
  {weight: 2, arbitrary: fc.nat().map((pick): RunArg => ({as: 'file', pick}))},
)

export interface CaseOptions {
  /**
   * One case in `cliEvery` (on average) also runs through the built CLI, and every case that names RUN relative to
   * the working directory; 0: never.
   */
  readonly cliEvery: number
  readonly maxEntries?: number
}

export function runCase(options: CaseOptions): fc.Arbitrary<RunCase> {
  // shrinks towards 1: in-process only
  const cli = options.cliEvery <= 0 ? fc.constant(false) : fc.integer({min: 1, max: options.cliEvery}).map((n) => n === options.cliEvery)
  // RUN named relative to the working directory (`NAME`, `./NAME`) is something only the built CLI is given (in-process
  // runs name it absolutely): drawn 1 in `cliEvery` like the rest, most such cases tested no relative name at all
  return fc
    .tuple(runName, fixtureBase, fc.array(entry, {maxLength: options.maxEntries ?? 8}), runArg, extraCommand, cli)
    .map(([name, base, extra, arg, command, viaCli]): RunCase => ({runName: name, entries: [...base, ...extra], arg, extra: command, cli: viaCli || (options.cliEvery > 0 && arg.as === 'relative')}))
}
