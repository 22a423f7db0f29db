import {describe, expect, it} from 'vitest'
// @ts-expect-error plain JS module without types
import {editDistance as argvDistance, typoBudget as argvBudget} from '../../../bin/argv.js'
import {closest, didYouMean, editDistance, typoBudget} from '../../../src/shared/suggest.js'

describe('suggestions for mistyped names', () => {
  it('counts a swap of neighbours as one edit (the usual typo), case folded', () => {
    expect(editDistance('gaet', 'gate')).toBe(1)
    expect(editDistance('insepct', 'inspect')).toBe(1)
    expect(editDistance('explian', 'explain')).toBe(1)
    expect(editDistance('LEGCY', 'legacy')).toBe(1)
    expect(editDistance('', 'abc')).toBe(3)
    expect(editDistance('kitten', 'sitting')).toBe(3)
  })

  it('names what the user most likely meant, nearest first, and nothing when nothing is close', () => {
    expect(closest('--verbse', ['--json', '--verbose', '--redact'])).toEqual(['--verbose'])
    expect(closest('legcy', ['legacy', 'fixed', 'pre-acr'])).toEqual(['legacy'])
    expect(closest('stallNormalise', ['stallNormalize', 'sdkTests'])).toEqual(['stallNormalize'])
    expect(closest('--verb', ['--json', '--verbose'])).toEqual(['--verbose'])
    expect(closest('zzzz', ['gate', 'live'])).toEqual([])
    expect(didYouMean('legcy', ['legacy', 'fixed'])).toBe(' Did you mean `legacy`?')
    expect(didYouMean('nothing-like-it', ['legacy', 'fixed'])).toBe('')
  })

  it('bin/argv.js (plain JS, loaded before anything else) measures typos as this module does', () => {
    const words = ['gaet', 'gate', 'explian', 'inspect', 'live', 'lvie', 'profile', 'compare', 'x', '', 'RECORD', 'conformance', 'run.log']
    for (const a of words) {
      expect(argvBudget(a), a).toBe(typoBudget(a))
      for (const b of words) expect(argvDistance(a, b), `${a} ${b}`).toBe(editDistance(a, b))
    }
  })
})
