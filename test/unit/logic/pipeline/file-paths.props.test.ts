import {fc, test} from '../../../helpers/prop.js'
import {describe, expect} from 'vitest'
import {isValidFilePath} from '../../../../src/logic/pipeline/file-paths.js'
import {anyJsString, astralChar, codePoints, combiningMark, hardText, runs} from '../../../helpers/arbitraries/index.js'

/** `TaskWorkStreamParser._is_valid_file_path(path)` exactly as docs/guardkit-logic.md §4.1 states it; `len` counts code points. */
function validBySpec(path: string): boolean {
  if (path === '' || codePoints(path).length < 3) return false
  if (path === '*' || path === '**' || path === '***' || path.startsWith('*')) return false
  return path.includes('/') || path.includes('\\') || path.includes('.')
}

/** Short strings from the characters the rule looks at, where code points and UTF-16 units disagree. */
const shortPath = fc
  .array(fc.oneof(fc.constantFrom('/', '\\', '.', '*', 'a', 'é', ' ', '\ufeff', '\u3000', 'src', '**'), astralChar, combiningMark), {maxLength: 5})
  .map((parts) => parts.join(''))

// docs/guardkit-logic.md §4.1 `_is_valid_file_path` (fixed; TASK-FIX-PV01), vectors is_valid_file_path#*.
describe('_is_valid_file_path (docs/guardkit-logic.md §4.1)', () => {
  test.prop([fc.oneof(shortPath, hardText({maxLength: 12}), anyJsString)], runs(1000))('accepts exactly what the spec accepts, for any string', (path) => {
    expect(isValidFilePath(path)).toBe(validBySpec(path))
  })

  // `len("😀.")` is 2 in Python, `"😀.".length` is 3 in JS: two code points are too short, whatever the units.
  test.prop([astralChar, fc.constantFrom('/', '\\', '.')], runs(200))('two code points are too short even when they are three UTF-16 units', (astral, sep) => {
    expect(isValidFilePath(astral + sep)).toBe(false)
    expect(isValidFilePath(sep + astral)).toBe(false)
    expect(isValidFilePath('a' + astral + sep)).toBe(true)
  })
})
