import fc from 'fast-check'
import {anyJsString, fileBytes, hardText, jsonTextOf, jsonValue, logLine, mutatedArtifact} from '../../../test/helpers/arbitraries/index.js'
import type {Content, Damage, Piece} from './types.js'
import {ARTIFACT_BASES, FIXTURE_ARTIFACTS, FIXTURE_CONFIGS, FIXTURE_FEATURES, FIXTURE_LOGS, FIXTURE_NOTES, FIXTURE_TASK_FILES, REAL_LINES} from './sources.js'

/**
 * File contents by role, each realistic first (fixture files, real log lines, GuardKit-shaped JSON and
 * YAML) and then damaged or hostile: cut, CR/ANSI garbage, megabyte lines, invalid UTF-8, NUL bytes,
 * interleaved captures, 10 000-level nestings, huge arrays, odd frontmatter, binary, empty.
 */

/** 1 MiB UTF-16 units: ingest's `maxLineChars` (docs/ingest.md "Limits"). */
const LINE_LIMIT = 1024 * 1024

const hex = (bytes: Uint8Array): Piece => ({hex: Buffer.from(bytes).toString('hex')})
const oneOfFiles = (files: readonly string[], fallback: string) => (files.length > 0 ? fc.constantFrom(...files) : fc.constant(fallback))

/** Bytes that break text: NUL, invalid UTF-8, terminal escapes, lone CR, BOMs, separators. */
export const garbage: fc.Arbitrary<Piece> = fc.oneof(
  fc.constantFrom<Piece>(
    {hex: '00'}, {hex: '0000000000000000'}, {hex: 'ff'}, {hex: 'c328'}, {hex: '80'}, {hex: 'c0af'}, {hex: 'eda080'}, {hex: 'f4908080'}, {hex: 'e282'},
    {hex: 'fffe'}, {hex: 'efbbbf'}, '\x1b[2K\r', '\x1b[1A\x1b[2K', '\x1b]0;title\x07', '\x1b[31mERROR\x1b[0m', '\r', '\r\r\n', '\u2028', '\u0085', '\x0c', '\x7f',
    '⠋ Player Implementation ━━━━  12%\r', '\x1b[?25l', {repeat: '\x1b[2K\r⠙ working', count: 200},
    // CI workflow commands and terminal takeovers in record text (docs/security.md)
    '\n::warning title=INJ::injected\n', '::add-mask::hunter2', '  ::error file=x,line=1::boom', '##[error]injected', '##vso[task.setvariable variable=x]y',
    '\x1b]8;;http://evil.example\x07click\x1b]8;;\x07', '\x1bc', '\x1b[2J\x1b[H', '\x07',
  ),
  fc.uint8Array({minLength: 1, maxLength: 32}).map(hex),
  anyJsString,
)

/** A line of more than a megabyte (a spinner redrawn with CR, a dumped vector), or one right at the limit. */
export const hugeLine: fc.Arbitrary<Piece> = fc.oneof(
  fc.tuple(fc.constantFrom('x', '⠋ working\r', '\x1b[2K', '0.0123456789, ', 'INFO:guardkit.orchestrator.progress:tick ', 'é'), fc.integer({min: LINE_LIMIT / 2, max: 5 * LINE_LIMIT / 2}))
    .map(([unit, chars]): Piece => ({repeat: unit, count: Math.ceil(chars / unit.length)})),
  // at the limit, with a surrogate pair straddling it or not
  fc.tuple(fc.constantFrom('', 'a'), fc.integer({min: -1, max: 1})).map(([pre, d]): Piece => [pre, {repeat: '\u{1F600}', count: LINE_LIMIT / 2 + d}]),
  fc.integer({min: -2, max: 2}).map((d): Piece => ['INFO:guardkit.orchestrator.autobuild:', {repeat: 'a', count: LINE_LIMIT - 37 + d}]),
)

export const damage: fc.Arbitrary<Damage> = fc.oneof(
  {weight: 3, arbitrary: fc.nat().map((at): Damage => ({op: 'truncate', at}))},
  {weight: 4, arbitrary: fc.tuple(fc.nat(), garbage).map(([at, piece]): Damage => ({op: 'insert', at, piece}))},
  {weight: 1, arbitrary: fc.tuple(fc.nat(), hugeLine).map(([at, piece]): Damage => ({op: 'insert', at, piece: ['\n', piece, '\n']}))},
  {weight: 2, arbitrary: fc.tuple(fc.nat(), fc.integer({min: 1, max: 400})).map(([from, count]): Damage => ({op: 'lines', from, count}))},
  {weight: 1, arbitrary: fc.constantFrom<Damage>({op: 'crlf'}, {op: 'cr'}, {op: 'bom'}, {op: 'utf16le'}, {op: 'utf16le-nobom'}, {op: 'utf16be'})},
  // a NUL byte inside the first 8 KiB of an otherwise good text (discovery once dropped the whole log for it)
  {weight: 1, arbitrary: fc.nat({max: 8191}).map((at): Damage => ({op: 'insert', at, piece: {hex: '00'}}))},
  {weight: 1, arbitrary: fc.tuple(fc.nat(), fc.nat({max: 20000}), fc.nat()).map(([from, length, at]): Damage => ({op: 'duplicate', from, length, at}))},
)

/** Damage for a file: none most of the time (the run stays analysable), else one to three. */
export const damages = fc.oneof({withCrossShrink: true}, {weight: 3, arbitrary: fc.constant<Damage[]>([])}, {weight: 2, arbitrary: fc.array(damage, {minLength: 1, maxLength: 3})})

const runStart = fc.constantFrom(
  'dev@mac fastapi % guardkit autobuild feature FEAT-X --max-turns 5',
  'INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-X (max_turns=5, stop_on_failure=True, resume=False, fresh=False, sdk_timeout=None, enable_pre_loop=None)',
  'INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-X-001 (resume=False)',
)
const line = logLine(REAL_LINES)

/** A console capture: a fixture log (maybe cut to a window), synthetic lines, or two captures interleaved. */
export const logContent: fc.Arbitrary<Content> = fc.oneof(
  {weight: 4, arbitrary: oneOfFiles(FIXTURE_LOGS, 'x').map((file): Content => ({kind: 'fixture', file}))},
  {
    weight: 3,
    arbitrary: fc.tuple(fc.option(runStart, {freq: 4, nil: undefined}), fc.array(line, {maxLength: 80})).map(
      ([start, lines]): Content => ({kind: 'pieces', pieces: [...(start === undefined ? [] : [start]), ...lines].join('\n') + '\n'}),
    ),
  },
  {weight: 1, arbitrary: fc.tuple(oneOfFiles(FIXTURE_LOGS, 'x'), oneOfFiles(FIXTURE_LOGS, 'x'), fc.integer({min: 1, max: 40})).map(([a, b, block]): Content => ({kind: 'interleave', a, b, block}))},
  {weight: 1, arbitrary: fc.tuple(runStart, hugeLine, fc.array(line, {maxLength: 10})).map(([s, h, ls]): Content => ({kind: 'pieces', pieces: [s, '\n', h, '\n', ls.join('\n')]}))},
)

/** Ten thousand (or more, or right at the parser's 512) levels of JSON nesting, inside a real artifact field or bare. */
const deepJson = fc
  .tuple(
    fc.constantFrom(10_000, 10_000, 100_000, 511, 512, 513, 2000),
    fc.constantFrom('array', 'object', 'mixed'),
    fc.constantFrom(null, 'completion_promises', 'files_modified', 'criteria_verification', 'validation_results', 'issues', 'checkpoints'),
    fc.boolean(),
  )
  .map(([depth, style, wrap, closed]): Content => {
    const open: Piece = style === 'array' ? '[' : style === 'object' ? '{"a":' : '[{"a":'
    const close: Piece = style === 'array' ? ']' : style === 'object' ? '}' : '}]'
    const count = style === 'mixed' ? Math.ceil(depth / 2) : depth
    const deep: Piece = [{repeat: open, count}, '1', ...(closed ? [{repeat: close, count}] : [])]
    return {kind: 'pieces', pieces: wrap === null ? deep : [`{"task_id": "TASK-X-001", "turn": 1, "${wrap}": `, deep, closed ? '}' : '']}
  })

/** Megabytes of a real shape: thousands of promises or files, a huge string, a wide object. */
const hugeJson = fc
  .tuple(fc.constantFrom('promises', 'files', 'string', 'keys', 'numbers'), fc.integer({min: 10_000, max: 60_000}))
  .map(([shape, n]): Content => {
    const head = '{"task_id": "TASK-X-001", "turn": 1, '
    switch (shape) {
      case 'promises':
        return {kind: 'pieces', pieces: [head, '"completion_promises": [', {repeat: '{"criterion_id": "AC-001", "criterion_text": "x", "status": "complete", "evidence": "e"}, ', count: n}, '{}]}']}
      case 'files':
        return {kind: 'pieces', pieces: [head, '"files_modified": [', {repeat: '"src/app/😀 file.py", ', count: n * 2}, '"x"], "files_created": []}']}
      case 'string':
        return {kind: 'pieces', pieces: [head, '"summary": "', {repeat: 'ab\\u00e9\\ud83d\\ude00 ', count: n * 4}, '"}']}
      case 'keys':
        return {kind: 'pieces', pieces: [head, {repeat: '"k": 1, ', count: n}, '"z": 0}']}
      default:
        return {kind: 'pieces', pieces: ['[', {repeat: '1e308, -0.0, 123456789012345678901234567890, ', count: n}, 'NaN]']}
    }
  })

const artifactBase = (kind: string | null) => {
  const bases = kind === null ? [] : (ARTIFACT_BASES.get(kind) ?? [])
  return bases.length > 0 ? fc.constantFrom(...bases) : fc.constant<unknown>({task_id: 'TASK-X-001', turn: 1})
}

/** An artifact in `.guardkit/autobuild/TASK-X/`: real, with wrong-typed values, damaged JSON text, deep, huge. */
export function artifactContent(kind: string | null): fc.Arbitrary<Content> {
  const base = artifactBase(kind)
  return fc.oneof(
    {weight: 40, arbitrary: oneOfFiles(FIXTURE_ARTIFACTS, 'x').map((file): Content => ({kind: 'fixture', file}))},
    {weight: 20, arbitrary: base.map((value): Content => ({kind: 'json', value}))},
    {weight: 30, arbitrary: base.chain(mutatedArtifact).map((value): Content => ({kind: 'json', value}))},
    {weight: 20, arbitrary: base.chain(mutatedArtifact).chain(jsonTextOf).map((text): Content => ({kind: 'pieces', pieces: text}))},
    {weight: 10, arbitrary: jsonValue.map((value): Content => ({kind: 'json', value}))},
    {weight: 10, arbitrary: deepJson},
    // huge files cost a second to write, hash and parse: rare
    {weight: 2, arbitrary: hugeJson},
  )
}

/** YAML GuardKit's PyYAML would choke on, or read differently. */
const oddYaml = fc.oneof(
  fc.constantFrom(
    'id: [\n', 'id: TASK-X-001\nid: TASK-Y-002', '- a\n- b', 'just a scalar', 'null', '~', '', '{}', '[]', '"unterminated', 'id: !!python/object/apply:os.system ["echo pwned"]',
    'id: TASK-X-001\nstatus: !!binary aGVsbG8=', 'id: 0x1F\nturn: 1e400', 'id: .nan', 'created: 2026-13-45T99:99:99', 'a: &a [*a]', '? [complex, key]\n: value',
    'id:\tTASK-X-001', 'id: TASK-X-001\n\t- tab', 'autobuild_state:\n  turns: 7', 'autobuild_state:\n  turns:\n  - turn: one\n    decision: 5', 'acceptance_criteria: {a: 1}',
    'id: "\\ud800"', '%YAML 1.2\n---\nid: x', 'id: x\n...\nmore: y', 'id: TASK-X-001\nmax_turns: -1\nimplementation_mode: sideways',
    'id: 12:30:00', 'status: yes', "id: 'it''s'", '<<: {id: merged}', '!!set {a, b}', 'id: |\n  literal\n  block',
  ),
  // an alias bomb: ten levels of ten references (10^10 strings once expanded)
  fc.constant(['a0: &a0 [x, x, x, x, x, x, x, x, x, x]', ...Array.from({length: 9}, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`)].join('\n')),
  fc.tuple(fc.constantFrom(1000, 10_000), fc.constantFrom('flow', 'block', 'map')).map(([n, style]): string => {
    if (style === 'flow') return `id: TASK-X-001\nx: ${'['.repeat(n)}${']'.repeat(n)}`
    if (style === 'map') return `id: TASK-X-001\nx: ${'{a: '.repeat(n)}1${'}'.repeat(n)}`
    return `id: TASK-X-001\nx:\n${Array.from({length: Math.min(n, 2000)}, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}1`
  }),
  hardText({maxLength: 40}),
  anyJsString,
)

const criteriaBody = fc.array(
  fc.oneof(
    fc.constantFrom('## Acceptance Criteria', '- [ ] Config file exists', '- [x] Tests pass', '  - [ ] nested sub-bullet', '1. First', '---', '```', '```yaml\nid: x\n```', '<script>alert(1)</script>', '| a | b |'),
    hardText({maxLength: 60}).map((t) => `- [ ] ${t}`),
    fc.integer({min: 100, max: 3000}).map((n) => `${' '.repeat(n)}- [ ] deep`),
  ),
  {maxLength: 20},
)

/** A task file: a real one, or frontmatter of any oddness (unclosed, not a mapping, deep, a bomb) with criteria. */
export const taskFileContent: fc.Arbitrary<Content> = fc.oneof(
  {weight: 3, arbitrary: oneOfFiles(FIXTURE_TASK_FILES, 'x').map((file): Content => ({kind: 'fixture', file}))},
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom('---\n', '\ufeff---\n', '--- \n', '---\r\n', ''), oddYaml, fc.constantFrom('\n---\n', '\n---', '\n', '\n--- x\n', '\n...\n'), criteriaBody).map(
      ([open, yaml, close, body]): Content => ({kind: 'pieces', pieces: [open, yaml, close, body.join('\n'), '\n']}),
    ),
  },
  {weight: 1, arbitrary: fc.tuple(fc.integer({min: 1000, max: 5000}), fc.boolean()).map(([n, closed]): Content => ({kind: 'pieces', pieces: ['---\nid: TASK-X-001\n', {repeat: 'k: v\n', count: n}, closed ? '---\nbody\n' : '']}))},
)

/** A feature YAML or config.yaml: real ones, or odd YAML. */
export function yamlContent(files: readonly string[]): fc.Arbitrary<Content> {
  return fc.oneof(
    {weight: 3, arbitrary: oneOfFiles(files, 'x').map((file): Content => ({kind: 'fixture', file}))},
    {weight: 2, arbitrary: oddYaml.map((y): Content => ({kind: 'pieces', pieces: y}))},
    {weight: 1, arbitrary: jsonValue.map((value): Content => ({kind: 'json', value}))},
  )
}
export const featureContent = yamlContent(FIXTURE_FEATURES)
export const configContent = yamlContent(FIXTURE_CONFIGS.length > 0 ? FIXTURE_CONFIGS : FIXTURE_FEATURES)

/** Files that are not GuardKit's: notes quoting a record, binary, empty, random. */
export const strayContent: fc.Arbitrary<Content> = fc.oneof(
  {weight: 2, arbitrary: oneOfFiles(FIXTURE_NOTES, 'x').map((file): Content => ({kind: 'fixture', file}))},
  {weight: 2, arbitrary: fileBytes(fc.string()).map((b): Content => ({kind: 'pieces', pieces: hex(b)}))},
  {weight: 1, arbitrary: fc.constant<Content>({kind: 'pieces', pieces: ''})},
  {weight: 1, arbitrary: fc.constant<Content>({kind: 'pieces', pieces: {hex: '89504e470d0a1a0a0000000d4948445200000001000000010806000000'}})},
  {weight: 1, arbitrary: fc.array(line, {maxLength: 3}).map((ls): Content => ({kind: 'pieces', pieces: `# notes\n\n${ls.join('\n')}\n`}))},
)
