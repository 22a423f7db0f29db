import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {basename, join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {runRecord} from '../../../src/services/record.js'
import {analyseToJson, expectNoNames, TOOL, verdictsOf} from '../../helpers/recording.js'
import {CORPUS_LOGS as CORPUS} from '../helpers.js'

const scratch = mkdtempSync(join(tmpdir(), 'gr-record-'))
/** The machine that records is nobody in particular: tests must not depend on who runs them. */
const machine = {users: [], hosts: [], homes: []}
afterAll(() => rmSync(scratch, {recursive: true, force: true}))

let n = 0
function fresh(name = 'rec'): string {
  return join(scratch, `${name}-${++n}`)
}

describe('record → analyze on corpus logs (../shared/corpus/logs)', () => {
  it.each(['db_stalled.log', 'api_docs_2.log', 'db_another_fail.log', 'autobuild-FOREGE-FEAT-005-fails-1.log', 'run_1.log'])('%s', async (log) => {
    const run = join(CORPUS, log)
    const before = readFileSync(run)
    const out = fresh(basename(log, '.log'))
    await runRecord(run, {out, tool: TOOL, machine})
    expect(readFileSync(run).equals(before)).toBe(true)
    expect(verdictsOf(await analyseToJson(out))).toEqual(verdictsOf(await analyseToJson(run)))
    expect(readdirSync(out).sort()).toEqual(['guardkit-replay.json', log].sort())
    expect(JSON.parse(readFileSync(join(out, 'guardkit-replay.json'), 'utf8')).logs).toEqual([log])
    const text = readFileSync(run, 'latin1')
    const names = {users: ['richardwoollcott'], hosts: ['Richards-MBP', 'promaxgb10-41b1']}
    expectNoNames(out, names)
    const redacted = readFileSync(join(out, log), 'latin1')
    expect(redacted.length).toBe(text.length)
    expect(redacted).not.toMatch(/postgres(?:ql)?(?:\+asyncpg)?:\/\/postgres:test@/)
  }, 60_000)
})
