import {spawnSync} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {removeTempDirs, tempDir} from '../../../helpers/temp-dirs.js'
import {builtCli, root} from '../../helpers/built-cli.js'

/**
 * The built CLI on a log long enough for `analyze --json` to analyse ahead of the read on a second
 * thread (src/services/stream/speculation.ts; the thread is bundled as dist/services/stream/
 * analysis-worker.js): the document is the one the whole report gives (`--out`, never streamed), and
 * GUARDKIT_REPLAY_DEBUG says the thread's results were used. The log: authored fixture logs of one
 * GuardKit era, one after another, over and over (~14 MB).
 */
const LOGS = ['ok-parallel-waves', 'db-003-timeout-log-only', 'ok-approved-after-feedback']
const unit = Buffer.concat(LOGS.map((name) => readFileSync(join(root, 'fixtures/runs', name, 'run.log'))))

describe('analyze --json of a long log, analysed ahead of the read', () => {
  afterAll(removeTempDirs)

  it('draws the whole report\'s document from the second thread\'s results, as a path and on stdin', async () => {
    const dir = tempDir('gr-stream-')
    const log = join(dir, 'many-runs.log')
    writeFileSync(log, Buffer.concat(Array.from({length: Math.ceil(14e6 / unit.length)}, () => unit)))
    const out = join(dir, 'whole.json')
    const whole = await builtCli(['analyze', log, '--format', 'json', '--out', out])
    expect(whole.code).toBe(0)
    const expected = readFileSync(out, 'utf8')

    const streamed = await builtCli(['analyze', log, '--json'], {GUARDKIT_REPLAY_DEBUG: '1'})
    expect(streamed.code).toBe(0)
    expect(streamed.stderr).toMatch(/analysing ahead of the read on a second thread/)
    expect(streamed.stderr).toMatch(/attempts analysed ahead of the read are the report's/)
    expect(streamed.stdout).toBe(expected)

    const onStdin = (args: readonly string[]) => spawnSync(process.execPath, [join(root, 'bin/run.js'), 'analyze', '-', ...args], {
      cwd: root, input: readFileSync(log), maxBuffer: 256 << 20, encoding: 'utf8',
      env: {...process.env, NO_COLOR: '1', OCLIF_SKIP_NEW_VERSION_CHECK: 'true', GUARDKIT_REPLAY_DEBUG: '1'},
    })
    const stdinOut = join(dir, 'whole-stdin.json')
    expect(onStdin(['--format', 'json', '--out', stdinOut]).status).toBe(0)
    const piped = onStdin(['--json'])
    expect(piped.status).toBe(0)
    expect(piped.stderr).toMatch(/attempts analysed ahead of the read are the report's/)
    expect(piped.stdout).toBe(readFileSync(stdinOut, 'utf8'))
  }, 120_000)
})
