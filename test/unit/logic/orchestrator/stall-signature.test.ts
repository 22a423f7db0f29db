import {describe, expect, it} from 'vitest'
import {feedbackSignatures, normalizeFeedbackForStall, signatureOf} from '../../../../src/logic/orchestrator/index.js'
import {FIXED, LEGACY} from './helpers.js'

// Expected values: docs/guardkit-logic.md §8.4 (examples [ran]) and CPython 3.11 (re.sub with the six patterns, hashlib.md5).
describe('_normalize_feedback_for_stall (docs/guardkit-logic.md §8.4, D27)', () => {
  it('normalises before lower-casing, so a capital "Line 42" survives', () => {
    expect(normalizeFeedbackForStall('error at Line 42 of module')).toBe('error at Line 42 of module')
    expect(normalizeFeedbackForStall('LINE 7 and line 8')).toBe('LINE 7 and line N')
    expect(signatureOf(normalizeFeedbackForStall('LINE 7 and line 8'))).toBe('189cf453')
  })
  it('leaves durations without a decimal point alone', () => {
    expect(normalizeFeedbackForStall('in 12s and in 1.5s')).toBe('in 12s and in Ns')
  })
  it('treats any Unicode decimal digit as \\d, as Python re does', () => {
    expect(normalizeFeedbackForStall('error at line ٤٢ of module')).toBe('error at line N of module')
  })
  it('applies the patterns in order: a node id under a worktree path is taken by pattern 1 first', () => {
    expect(normalizeFeedbackForStall('/a/worktrees/b/c/x.py::t FAILED')).toBe('FILE::TEST FAILED')
  })
  it('normalises counts, singular and plural warnings, and percentages', () => {
    expect(normalizeFeedbackForStall('3 warning 4 warnings 5 error')).toBe('N warning N warnings N error')
    expect(normalizeFeedbackForStall('50.5% then 7%')).toBe('N% then N%')
  })
  it('never touches missing-criteria text', () => {
    const text = '- Not all acceptance criteria met:\n  • Config file exists'
    expect(normalizeFeedbackForStall(text)).toBe(text)
  })
})

describe('feedback signatures (docs/guardkit-logic.md §3.2, §3.4, §8.4)', () => {
  it('exposes both signatures and uses the one the profile hashes', () => {
    const text = 'error at line ٤٢ of module'
    const legacy = feedbackSignatures(text, LEGACY)
    const fixed = feedbackSignatures(text, FIXED)
    expect(legacy.raw).toBe('51295dda')
    expect(legacy.normalized).toBe('2d8478c4')
    expect(legacy.used).toBe('51295dda')
    expect(fixed.used).toBe('2d8478c4')
    expect(fixed.normalizedText).toBe('error at line N of module')
  })
  it('strips Python whitespace (\\x1c, \\r\\n) but not U+FEFF before hashing', () => {
    expect(signatureOf('\u001c- Coverage threshold not met')).toBe('f696a94c')
    expect(signatureOf('- Coverage threshold not met\r\n')).toBe('f696a94c')
    expect(signatureOf('\ufeff- Coverage threshold not met')).toBe('a406352e')
  })
  it('gives the varying TASK-DB-003 test failures one normalised signature, 82511af6 (docs/guardkit-logic.md §8.1)', () => {
    const a = '- Independent test verification failed:\n  FAILED tests/users/test_users.py::X::y - OperationalError\n  ==== 1 failed in 1.00s ===='
    expect(feedbackSignatures(a, FIXED).used).toBe('82511af6')
  })
})
