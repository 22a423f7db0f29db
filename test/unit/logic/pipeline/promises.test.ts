import {describe, expect, it} from 'vitest'
import {collectingSink} from '../../../../src/logic/log-sink.js'
import {
  buildStateRecoveryReport,
  extractCodePatterns,
  extractCriterionKeywords,
  generateFileExistencePromises,
  generateFileExistencePromisesLegacy,
  generateGitAnalysisPromises,
  type WorkState,
} from '../../../../src/logic/pipeline/index.js'
import {FIXED, LEGACY, worktree} from './helpers.js'

describe('file-existence promises (docs/guardkit-logic.md §4.5, §5.5, D12)', () => {
  it('matches by plain substring: `v1.2` matches a docs/v1.2/ path, a Windows path never matches a / pattern', () => {
    const promises = generateFileExistencePromises(['docs/v1.2/notes.md', 'tests\\seam\\test_x.py'], [], ['Release v1.2 notes', '`tests/seam/test_x.py` exists'], null)
    expect(promises.map((p) => p.status)).toEqual(['complete', 'incomplete'])
  })

  it('lists each matched file once in first-seen order, with where it came from', () => {
    const [p] = generateFileExistencePromises(['src/a.py'], ['src/a.py', 'lib/a.py'], ['a.py and `src/a.py`'], null)
    expect(p!.evidence).toBe('File-existence verified: src/a.py (created), lib/a.py (modified)')
  })

  it('without a worktree there is no disk check; with one, a backtick directory that exists is partial', () => {
    const ac = ['Directory `tests/seam/` exists']
    expect(generateFileExistencePromises([], [], ac, null)[0]!.status).toBe('incomplete')
    expect(generateFileExistencePromises([], [], ac, worktree({'tests/seam/': null}))[0]).toEqual(expect.objectContaining({status: 'partial', evidence: 'File existence verified: tests/seam/'}))
  })

  it('a criteria string is iterated by character, as a Python for loop does', () => {
    expect(generateFileExistencePromises([], [], 'ab', null).map((p) => p.criterion_text)).toEqual(['a', 'b'])
  })

  it('legacy autobuild lists a file once per matching pattern, and has no evidence_type', () => {
    const [p] = generateFileExistencePromisesLegacy(['src/a.py'], [], ['a.py in src/a.py'])
    expect(p).toEqual({criterion_id: 'AC-001', criterion_text: 'a.py in src/a.py', status: 'complete', evidence: 'File-existence verified: src/a.py (created), src/a.py (created)'})
  })
})

describe('git-analysis promises (docs/guardkit-logic.md §5.5)', () => {
  it('gives nothing when no file changed', () => {
    expect(generateGitAnalysisPromises([], [], ['anything'])).toEqual([])
  })

  it('falls back to keywords found in the changed paths when no file or code pattern matched', () => {
    // keywords {refunds} ("the" is a stop word), found in "src/refunds.py"; 1 >= max(1, 0.3)
    const [p] = generateGitAnalysisPromises(['src/refunds.py'], [], ['The refunds'])
    expect(p).toEqual(expect.objectContaining({status: 'partial', evidence: 'Git-analysis detected: Patterns: refunds'}))
  })

  it('extracts calls, CamelCase names and their words, and endpoints, keeping duplicates', () => {
    expect(extractCodePatterns('run() then run() on FooBar at /v1/x')).toEqual(['run', 'run', 'FooBar', 'foo', 'bar', '/v1/x'])
  })

  it('uses a Unicode word boundary as Python does', () => {
    // CPython: re.findall(r'\b(\w+)\(\)', 'éa()') == ['éa']
    expect(extractCodePatterns('éa()')).toEqual(['éa'])
  })

  it('keeps keywords longer than three letters outside the stop-word list', () => {
    // CPython: re.findall(r'[a-zA-Z_]\w*', 'AC-001 must validate_card() handles Ünïcode naïve')
    //   == ['AC', 'must', 'validate_card', 'handles', 'nïcode', 'naïve']; "must" is a stop word.
    expect(extractCriterionKeywords('AC-001 must validate_card() handles Ünïcode naïve').sort()).toEqual(['handles', 'naïve', 'nïcode', 'validate_card'])
  })
})

describe('_build_synthetic_report in state recovery (docs/guardkit-logic.md §5.4)', () => {
  const work: WorkState = {
    turn: 1, filesModified: ['src/settings.py'], filesCreated: ['src/payment_processor.py', 'src/x.py', 'src/y.py', 'src/z.py'], testsWritten: [],
    testCount: 0, testsPassed: false, testOutputSummary: null, detectionMethod: 'git_only', gitInsertions: 3, gitDeletions: 1,
  }

  it('logs what it builds in the format of the captured logs', () => {
    const sink = collectingSink()
    buildStateRecoveryReport(work, 'SDK timeout', ['PaymentProcessor handles refunds'], 'feature', FIXED, {timestamp: 't', sink})
    expect(sink.records).toEqual([
      {level: 'WARNING', logger: 'guardkit.orchestrator.autobuild', message: '[Turn 1] Building synthetic report: 4 files created, 1 files modified, 0 tests. Generating git-analysis promises for feature task.'},
      {level: 'INFO', logger: 'guardkit.orchestrator.autobuild', message: 'Generated 1 git-analysis promises for feature task synthetic report'},
    ])
  })

  it('gives a None task type no promises, and says the report cannot satisfy promise matching', () => {
    const sink = collectingSink()
    const {report} = buildStateRecoveryReport(work, null, ['x'], null, LEGACY, {timestamp: 't', sink})
    expect('completion_promises' in report).toBe(false)
    expect(sink.records[0]!.message).toMatch(/Note: report has no completion_promises and cannot satisfy promise-based criteria matching\.$/)
  })

  it('gives "implementation" (the raw frontmatter value) git-analysis promises', () => {
    const {report} = buildStateRecoveryReport(work, null, ['PaymentProcessor handles refunds'], 'implementation', LEGACY, {timestamp: 't'})
    expect(report.completion_promises).toEqual([expect.objectContaining({status: 'partial', evidence_type: 'git_analysis'})])
  })

  it('pre-ACR builds no git-analysis promises', () => {
    const preAcr = Object.fromEntries(Object.keys(LEGACY).map((k) => [k, false])) as typeof LEGACY
    const {report} = buildStateRecoveryReport(work, null, ['PaymentProcessor handles refunds'], 'feature', preAcr, {timestamp: 't'})
    expect('completion_promises' in report).toBe(false)
  })

  it('the shared builder in fixed logs the scaffolding promises under synthetic_report', () => {
    const sink = collectingSink()
    buildStateRecoveryReport(work, null, ['`src/x.py` exists'], 'scaffolding', FIXED, {timestamp: 't', sink})
    expect(sink.records[1]).toEqual({level: 'INFO', logger: 'guardkit.orchestrator.synthetic_report', message: 'Generated 1 file-existence promises for scaffolding task synthetic report'})
  })
})
