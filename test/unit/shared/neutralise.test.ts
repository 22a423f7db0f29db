import {fc, test} from '../../helpers/prop.js'
import {describe, expect, it} from 'vitest'
import {neutraliseBlock, neutraliseInline, neutraliseJson, neutraliseJsonChunks, neutraliseLine, neutraliseNames, neutraliseOutput} from '../../../src/shared/neutralise.js'
import {runs} from '../../helpers/arbitraries/index.js'

// docs/security.md: what the terminal and a CI runner must never be handed raw. The escapes are the table
// of that page; a CI runner reads a line as a workflow command when its first non-blank characters are `::`
// (GitHub Actions), or when it holds `##[` (GitHub's older form) or `##vso[` (Azure Pipelines).

/** A line a GitHub runner would read as a command, or an older/Azure command anywhere in it. */
const isCommand = (line: string) => /^[\s\ufeff]*::/.test(line) || /##(?:vso)?\[/i.test(line)
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/

describe('neutraliseInline', () => {
  it('shows control characters escaped, so a value stays on one line and drives nothing', () => {
    expect(neutraliseInline('TASK-\x1b]0;pwned\x07-001')).toBe('TASK-\\e]0;pwned\\a-001')
    expect(neutraliseInline('a\x1b[2J\x1b[Hb')).toBe('a\\e[2J\\e[Hb')
    expect(neutraliseInline('run\n::warning title=INJ::x.log')).toBe('run\\n::warning title=INJ::x.log')
    expect(neutraliseInline('\0\b\t\v\f\r\x7f\x85\x9b')).toBe('\\0\\b\\t\\v\\f\\r\\x7f\\x85\\x9b')
    expect(neutraliseInline('user\u202egnp.exe')).toBe('user\\u202egnp.exe')
    expect(neutraliseInline('a\u2028b\ud800c')).toBe('a\\u2028b\\ud800c')
    expect(neutraliseInline('café 🙂 TASK-DB-003')).toBe('café 🙂 TASK-DB-003')
  })

  it('a value that starts a workflow command gets a backslash before it; ##[ and ##vso[ are broken anywhere', () => {
    expect(neutraliseInline('::add-mask::secret')).toBe('\\::add-mask::secret')
    expect(neutraliseInline('  ::error::x')).toBe('  \\::error::x')
    expect(neutraliseInline('x ##[error]y ##vso[task.setvariable]z')).toBe('x #\\#[error]y #\\#vso[task.setvariable]z')
    expect(neutraliseInline('a::b')).toBe('a::b')
  })
})

describe('neutraliseLine and neutraliseBlock', () => {
  it('a line keeps its tabs; a block keeps its line breaks, and none of its lines starts a command', () => {
    expect(neutraliseLine('a\tb\x1bc')).toBe('a\tb\\ec')
    expect(neutraliseBlock('first\r\n::set-output name=x::y\n\tsecond\x07')).toBe('first\n\\::set-output name=x::y\n\tsecond\\a')
  })
})

describe('neutraliseOutput', () => {
  it('keeps only the colour codes the palette wrote, escapes every other control character', () => {
    const text = '\x1b[1mbold\x1b[22m \x1b]8;;http://x\x07link \x1b[2J\x08 tab\there\r\nnext'
    expect(neutraliseOutput(text, {keepSgr: true})).toBe('\x1b[1mbold\x1b[22m \\e]8;;http://x\\alink \\e[2J\\b tab\there\nnext')
    expect(neutraliseOutput(text)).toBe('\\e[1mbold\\e[22m \\e]8;;http://x\\alink \\e[2J\\b tab\there\nnext')
  })

  it('no line of the output starts a workflow command, coloured or not', () => {
    expect(neutraliseOutput('ok\n::warning::x\n  ::add-mask::y\n\x1b[2m::error::z\x1b[22m', {keepSgr: true}))
      .toBe('ok\n\\::warning::x\n  \\::add-mask::y\n\x1b[2m::error::z\x1b[22m'.replace('\x1b[2m::', '\x1b[2m\\::'))
  })

  test.prop([fc.string({unit: 'binary', maxLength: 200})], {numRuns: 500})('whatever the text, no control character but newline and tab, and no command line', (text) => {
    for (const out of [neutraliseOutput(text), neutraliseBlock(text)]) {
      expect(out.replace(/[\n\t]/g, '')).not.toMatch(CONTROL)
      for (const line of out.split('\n')) expect(isCommand(line)).toBe(false)
    }
    const inline = neutraliseInline(text)
    expect(inline).not.toMatch(CONTROL)
    expect(inline).not.toMatch(/\t/)
    expect(isCommand(inline)).toBe(false)
  })
})

describe('neutraliseJson', () => {
  it('writes # of ##[ as \\u0023: the same value once parsed, no command in the log', () => {
    const json = JSON.stringify({message: 'x ##[add-mask]secret ##vso[task.complete]'}, null, 2)
    const out = neutraliseJson(json)
    expect(JSON.parse(out)).toEqual(JSON.parse(json))
    expect(out.split('\n').some(isCommand)).toBe(false)
  })

  test.prop([fc.array(fc.string({unit: fc.constantFrom('#', '#', '[', 'v', 's', 'o', 'V', 'x', '\n')}), {maxLength: 12})], runs(500))(
    'a document in pieces (a streamed report): the pieces joined are the whole document neutralised, a ## split between pieces too',
    (pieces) => {
      const out = [...neutraliseJsonChunks(pieces)].join('')
      expect(out).toBe(neutraliseJson(pieces.join('')))
      expect(out.split('\n').some(isCommand)).toBe(false)
    },
  )

  test.prop([fc.array(fc.tuple(fc.string({unit: fc.constantFrom('#', '[', 'v', 's', 'o', 'x', 'é', '✓', '\n')}), fc.boolean()), {maxLength: 12})], runs(500))(
    'the same when some pieces are UTF-8 bytes (task runs drawn ahead), and bytes without # go out untouched',
    (drawn) => {
      const pieces = drawn.map(([text, asBytes]) => (asBytes ? Buffer.from(text, 'utf8') : text))
      const out = [...neutraliseJsonChunks(pieces)]
      expect(Buffer.concat(out.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : c))).toString('utf8')).toBe(neutraliseJson(drawn.map(([text]) => text).join('')))
      // untouched unless what came before may begin a command (`#`, `##`, `##v`, … at its end: held back until this piece)
      drawn.forEach(([text], i) => {
        const piece = pieces[i]!
        const before = drawn.slice(0, i).map(([t]) => t).join('')
        if (typeof piece !== 'string' && text !== '' && !text.includes('#') && !/#(?:#(?:v(?:so?)?)?)?$/i.test(before)) expect(out).toContain(piece)
      })
    },
  )
})

describe('neutraliseNames', () => {
  it('neutralises the names of a report at any depth and leaves its other text and its values alone', () => {
    const report = {run: {path: 'r\x1b[2J', logs: ['a\n::warning::x.log']}, tasks: [{taskId: 'TASK-\x07', feedback: 'keep\nlines', turns: [1, 2], evidence: [{file: '::x', line: 3}]}], n: 1}
    const out = neutraliseNames(report)
    expect(out).toEqual({run: {path: 'r\\e[2J', logs: ['a\\n::warning::x.log']}, tasks: [{taskId: 'TASK-\\a', feedback: 'keep\nlines', turns: [1, 2], evidence: [{file: '\\::x', line: 3}]}], n: 1})
    expect(report.run.path).toBe('r\x1b[2J')
    const clean = {run: {path: 'ok', logs: ['run.log']}}
    expect(neutraliseNames(clean)).toBe(clean)
  })
})
