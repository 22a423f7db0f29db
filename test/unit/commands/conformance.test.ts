import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {runCli} from '../../helpers/cli.js'

// `conformance FILE` on authored vector files (the oracle's own file is checked by npm run test:corpus). The
// outputs are those of test/unit/conformance/adapters.test.ts, where each is justified.
const dir = mkdtempSync(join(tmpdir(), 'gr-conformance-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))
afterEach(() => {
  process.exitCode = undefined
})

function vectors(name: string, lines: readonly object[]): string {
  const file = join(dir, name)
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  return file
}

const PASSING = [
  {fn: 'feedback_signature', version: 'legacy', input: {feedback: 'error at line ٤٢ of module'}, output: '51295dda'},
  {fn: 'summarize_test_output', version: 'fixed', input: {output: 'ALL TESTS OK\nDONE'}, output: 'Result:\nALL TESTS OK'},
]

describe('guardkit-replay conformance FILE', () => {
  it('runs every vector and exits 0 when all pass', async () => {
    const {stdout, error} = await runCli(['conformance', vectors('ok.jsonl', PASSING)])
    expect(error).toBeUndefined()
    expect(process.exitCode ?? 0).toBe(0)
    expect(stdout).toContain('2 vectors: 2 passed, 0 failed, 0 unsupported')
  })

  it('exits 1 on a failing or unsupported vector, naming its line, what was expected and what the model gave', async () => {
    const file = vectors('bad.jsonl', [...PASSING, {fn: 'feedback_signature', version: 'fixed', input: {feedback: 'error at line ٤٢ of module'}, output: '51295dda'}, {fn: 'no_such_function', version: 'fixed', input: {}, output: 1}])
    const {stdout} = await runCli(['conformance', file])
    expect(process.exitCode).toBe(1)
    expect(stdout).toContain('4 vectors: 2 passed, 1 failed, 1 unsupported')
    expect(stdout).toMatch(/line 3 feedback_signature \(fixed\): fail[^\n]*\n\s+expected "51295dda"\n\s+actual {3}"2d8478c4"/)
    expect(stdout).toContain('line 4 no_such_function (fixed): unsupported')
  })

  it('--json prints the report as one document', async () => {
    const {stdout} = await runCli(['conformance', vectors('ok.jsonl', PASSING), '--json'])
    expect(JSON.parse(stdout)).toMatchObject({total: 2, passed: 2, failed: 0, unsupported: 0, results: [{line: 1, status: 'pass'}, {line: 2, status: 'pass'}]})
  })

  it('exits 2 for a missing or empty FILE', async () => {
    expect((await runCli(['conformance', join(dir, 'missing.jsonl')])).error?.oclif?.exit).toBe(2)
    writeFileSync(join(dir, 'empty.jsonl'), '')
    const empty = await runCli(['conformance', join(dir, 'empty.jsonl')])
    expect(empty.error?.oclif?.exit).toBe(2)
    expect(empty.error?.message).toContain('holds no vectors')
  })
})
