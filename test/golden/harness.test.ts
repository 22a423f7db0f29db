import {readFileSync} from 'node:fs'
import {basename} from 'node:path'
import {describe, expect, it} from 'vitest'
import {explicitProfiles, parseExpected, type Expected} from './expectations.js'
import {fixtureDirs} from './fixtures.js'
import {checkFindings, checkProfile, checkRecorded, checkRun} from './match.js'
import type {GoldenView, ViewReplay, ViewTask} from './view.js'

// The golden harness checked on its own: every format feature of docs/fixtures.md is read and matched
// as documented, and a failing expectation says what was expected and what was found.

const replay = (over: Partial<ViewReplay> = {}): ViewReplay => ({
  outcome: 'unrecoverable_stall',
  stallTurn: 5,
  endTurn: 5,
  turns: [1, 2, 3, 4, 5].map((turn) => ({turn, criteriaMet: 0, criteriaTotal: 6, signature: turn === 2 ? 'f696a94c' : '82511af6', fidelity: 'exact' as const, missingInputs: []})),
  missingInputs: [],
  branches: [],
  ...over,
})

const task = (over: Partial<ViewTask> = {}): ViewTask => ({
  taskId: 'TASK-DB-003',
  attempt: 1,
  mode: 'task-work',
  recorded: {outcome: 'cancelled', turns: 18, stall: null, criteria: {1: [0, 6], 2: [0, 6]}},
  replays: {
    legacy: replay({outcome: 'cancelled (recorded)', stallTurn: null, endTurn: 18}),
    fixed: replay(),
    'as-run:351c53fa': replay({outcome: 'undetermined after turn 18', stallTurn: null, endTurn: 18}),
  },
  findings: [
    {code: 'ABSOLUTE_RELATIVE_DUPLICATES', turns: [1]},
    {code: 'ABSOLUTE_RELATIVE_DUPLICATES', turns: [7]},
    {code: 'ENDED_BY_TIMEOUT_NOT_STALL', turns: [18]},
  ],
  ...over,
})

const view = (over: Partial<GoldenView> = {}): GoldenView => ({
  inferredProfile: 'as-run:351c53fa',
  ingestIssues: [{file: 'run.log', code: 'too-long-line'}],
  tasks: [task()],
  ...over,
})

const DOC = `
run:
  inferredProfile: [as-run:351c53fa, as-run:8a697b80]
  ingestLimits: {maxLineChars: 16384}
ingestIssues:
  - {file: run.log, code: [too-long-line, binary]}
tasks:
  - taskId: TASK-DB-003
    attempt: 1
    mode: task-work
    recorded:
      outcome: cancelled
      turns: 18
      stall: null
      criteria: {1: [0, 6], 2: [0, 6]}
    replay:
      legacy: {outcome: ["cancelled (recorded)", "undetermined after turn 18"]}
      fixed: {outcome: unrecoverable_stall, stallTurn: 5, endTurn: 5}
      as-run: {outcome: "undetermined after turn 18", stallTurn: null}
    criteria:
      fixed: {1: [0, 6]}
    signatures:
      fixed: {2: f696a94c, 3: 82511af6, 4: 82511af6, 5: 82511af6}
    findings:
      present:
        - {code: ABSOLUTE_RELATIVE_DUPLICATES, turns: [1, 7]}
        - {code: ENDED_BY_TIMEOUT_NOT_STALL, turns: []}
      absent: [STALL_FIRED, MAX_TURNS_WITHOUT_STALL]
`

describe('expected.yaml parsing', () => {
  const doc = parseExpected(DOC, 'inline')

  it('reads every documented key', () => {
    expect(doc.run?.inferredProfile).toEqual(['as-run:351c53fa', 'as-run:8a697b80'])
    expect(doc.run?.ingestLimits).toEqual({maxLineChars: 16384})
    expect(doc.ingestIssues).toEqual([{file: 'run.log', code: ['too-long-line', 'binary']}])
    const t = doc.tasks[0]!
    expect(t.recorded).toEqual({outcome: 'cancelled', turns: 18, stall: null, criteria: {1: [0, 6], 2: [0, 6]}})
    expect(t.replay?.['as-run']).toEqual({outcome: 'undetermined after turn 18', stallTurn: null})
    expect(t.signatures?.fixed).toEqual({2: 'f696a94c', 3: '82511af6', 4: '82511af6', 5: '82511af6'})
    expect(explicitProfiles(doc)).toEqual(['legacy', 'fixed'])
  })

  it.each([
    ['a misspelt key', DOC.replace('stallTurn: 5', 'stalTurn: 5'), 'stalTurn'],
    ['an unknown profile', DOC.replace('legacy: {outcome', 'legacyy: {outcome'), 'legacyy'],
    ['a signature YAML reads as a number', DOC.replace('2: f696a94c', '2: 12345678'), 'signatures.fixed.2'],
    ['a turn that is not a number', DOC.replace('criteria: {1: [0, 6], 2: [0, 6]}', 'criteria: {first: [0, 6]}'), 'criteria.first'],
    ['fidelity other than approximate', DOC.replace('endTurn: 5}', 'endTurn: 5, fidelity: exact}'), 'fidelity'],
  ])('rejects %s, naming where', (_what, text, where) => {
    expect(() => parseExpected(text, 'inline')).toThrow(where)
  })

  it('rejects a task listed twice', () => {
    const twice = {tasks: [{taskId: 'TASK-A', attempt: 1}, {taskId: 'TASK-A', attempt: 1}]}
    expect(() => parseExpected(JSON.stringify(twice), 'inline')).toThrow('TASK-A#1 is listed twice')
  })

  it.each(fixtureDirs().map((d) => [basename(d), d]))('fixtures/runs/%s/expected.yaml follows the format', (_name, dir) => {
    const doc: Expected = parseExpected(readFileSync(`${dir}/expected.yaml`, 'utf8'), dir)
    expect(doc.tasks.length).toBeGreaterThan(0)
  })
})

describe('expected.yaml matching', () => {
  const doc = parseExpected(DOC, 'inline')
  const t = doc.tasks[0]!

  it('holds on a report that satisfies every expectation', () => {
    const v = view()
    expect(checkRun(doc, v)).toEqual([])
    expect(checkRecorded(t, v)).toEqual([])
    for (const p of ['legacy', 'fixed', 'as-run']) expect(checkProfile(t, p, v)).toEqual([])
    expect(checkFindings(t, v)).toEqual([])
  })

  it('any-of: each listed outcome is accepted, another is not', () => {
    const with_ = (outcome: string) => view({tasks: [task({replays: {...task().replays, legacy: replay({outcome, stallTurn: null})}})]})
    expect(checkProfile(t, 'legacy', with_('undetermined after turn 18'))).toEqual([])
    expect(checkProfile(t, 'legacy', with_('max_turns_exceeded'))).toEqual([
      'TASK-DB-003 (attempt 1) under legacy outcome: expected any of "cancelled (recorded)", "undetermined after turn 18", found "max_turns_exceeded"',
    ])
  })

  it('as-run means the inferred profile, which run.inferredProfile constrains', () => {
    const other = view({inferredProfile: 'legacy'})
    expect(checkRun(doc, other)).toEqual(['run.inferredProfile: expected any of "as-run:351c53fa", "as-run:8a697b80", found "legacy"'])
    // as-run now resolves to legacy, whose replay fails the as-run expectations
    expect(checkProfile(t, 'as-run', other)).toEqual([
      'TASK-DB-003 (attempt 1) under as-run (= "legacy") outcome: expected "undetermined after turn 18", found "cancelled (recorded)"',
    ])
    expect(checkProfile(t, 'as-run', view({inferredProfile: null}))).toEqual([
      'TASK-DB-003 (attempt 1) under as-run (= null): expected a replay under the inferred profile, but the tool inferred none',
    ])
  })

  it('stallTurn null means the detector must not fire; endTurn is the last executed turn', () => {
    const v = view({tasks: [task({replays: {...task().replays, 'as-run:351c53fa': replay({outcome: 'undetermined after turn 18', stallTurn: 3}), fixed: replay({endTurn: 6})}})]})
    expect(checkProfile(t, 'as-run', v)).toEqual(['TASK-DB-003 (attempt 1) under as-run (= "as-run:351c53fa") stallTurn: expected none (the detector must not fire), found 3'])
    expect(checkProfile(t, 'fixed', v)).toEqual(['TASK-DB-003 (attempt 1) under fixed endTurn: expected 5, found 6'])
  })

  it('branches: exactly the listed branches, each by outcome, stall turn, end turn and the values that give it', () => {
    const branches = [
      {outcome: 'approved', stallTurn: null, endTurn: 2, values: {priorPromises: ['all']}},
      {outcome: 'unrecoverable_stall', stallTurn: 4, endTurn: 4, values: {priorPromises: ['none', 'some']}},
    ]
    const wanted = parseExpected(JSON.stringify({tasks: [{taskId: 'TASK-DB-003', attempt: 1, replay: {fixed: {outcome: 'undetermined', branches: [
      {outcome: 'unrecoverable_stall', stallTurn: 4, values: {priorPromises: ['some', 'none']}},
      {outcome: 'approved', endTurn: 2},
    ]}}}]}), 'inline').tasks[0]!
    const with_ = (b: typeof branches) => view({tasks: [task({replays: {...task().replays, fixed: replay({outcome: 'undetermined', stallTurn: null, endTurn: 4, branches: b})}})]})
    expect(checkProfile(wanted, 'fixed', with_(branches))).toEqual([])
    expect(checkProfile(wanted, 'fixed', with_([branches[0]!, {...branches[1]!, stallTurn: 3}]))).toEqual([
      'TASK-DB-003 (attempt 1) under fixed branches: expected one {"outcome":"unrecoverable_stall","stallTurn":4,"values":{"priorPromises":["some","none"]}}, found ' +
        '{"outcome":"approved","stallTurn":null,"endTurn":2,"values":{"priorPromises":["all"]}}; {"outcome":"unrecoverable_stall","stallTurn":3,"endTurn":4,"values":{"priorPromises":["none","some"]}}',
    ])
    expect(checkProfile(wanted, 'fixed', with_([branches[0]!]))[0]).toMatch(/branches: expected 2 .*found 1/)
  })

  it('signatures and criteria are compared per replayed turn', () => {
    const turns = replay().turns.map((u) => (u.turn === 4 ? {...u, signature: '7e14c185'} : u.turn === 1 ? {...u, criteriaMet: 1} : u))
    const v = view({tasks: [task({replays: {...task().replays, fixed: replay({turns})}})]})
    expect(checkProfile(t, 'fixed', v)).toEqual([
      'TASK-DB-003 (attempt 1) under fixed criteria turn 1: expected 0/6, found 1/6',
      'TASK-DB-003 (attempt 1) under fixed signature turn 4: expected 82511af6, found "7e14c185"',
    ])
  })

  it('fidelity: approximate forbids exact turns and wants the missing inputs named', () => {
    const approx = parseExpected(DOC.replace('endTurn: 5}', 'endTurn: 5, fidelity: approximate}'), 'inline').tasks[0]!
    expect(checkProfile(approx, 'fixed', view())).toEqual([
      'TASK-DB-003 (attempt 1) under fixed fidelity: expected no turn reported as exact (inputs are partial), found exact turns 1, 2, 3, 4, 5',
      'TASK-DB-003 (attempt 1) under fixed missingInputs: expected the missing inputs to be named, found none',
    ])
    const turns = replay().turns.map((u) => ({...u, fidelity: 'approximate' as const}))
    const ok = view({tasks: [task({replays: {...task().replays, fixed: replay({turns, missingInputs: ['full feedback texts']})}})]})
    expect(checkProfile(approx, 'fixed', ok)).toEqual([])
  })

  it('inexactTurns: only the listed turns must not be exact', () => {
    const some = parseExpected(DOC.replace('endTurn: 5}', 'endTurn: 5, inexactTurns: [3, 4]}'), 'inline').tasks[0]!
    expect(checkProfile(some, 'fixed', view())).toEqual([
      'TASK-DB-003 (attempt 1) under fixed turn 3: expected a fidelity other than exact (its inputs are partial), found exact',
      'TASK-DB-003 (attempt 1) under fixed turn 4: expected a fidelity other than exact (its inputs are partial), found exact',
    ])
    const turns = replay().turns.map((u) => (u.turn >= 3 ? {...u, fidelity: 'insufficient' as const} : u))
    expect(checkProfile(some, 'fixed', view({tasks: [task({replays: {...task().replays, fixed: replay({turns})}})]}))).toEqual([])
  })

  it('findings: present codes cover their turns across findings; absent codes must not appear', () => {
    const v = view({tasks: [task({findings: [{code: 'ABSOLUTE_RELATIVE_DUPLICATES', turns: [1]}, {code: 'STALL_FIRED', turns: [3]}]})]})
    expect(checkFindings(t, v)).toEqual([
      'TASK-DB-003 (attempt 1) findings: expected ABSOLUTE_RELATIVE_DUPLICATES to cover turns 1, 7, found turns 1 (missing 7)',
      'TASK-DB-003 (attempt 1) findings: expected ENDED_BY_TIMEOUT_NOT_STALL, found only ABSOLUTE_RELATIVE_DUPLICATES, STALL_FIRED',
      'TASK-DB-003 (attempt 1) findings: expected no STALL_FIRED, found it at turns 3',
    ])
  })

  it('recorded values, mode, ingest issues and missing tasks are reported with what was found', () => {
    const v = view({
      ingestIssues: [{file: 'run.log', code: 'truncated'}],
      tasks: [task({mode: 'direct', recorded: {outcome: 'timeout', turns: 17, stall: {turn: 3, signature: 'bbaba24c'}, criteria: {1: [0, 6]}}})],
    })
    expect(checkRun(doc, v)).toEqual(['ingestIssues: expected any of "too-long-line", "binary" on run.log, found truncated'])
    expect(checkRecorded(t, v)).toEqual([
      'TASK-DB-003 (attempt 1) mode: expected "task-work", found "direct"',
      'TASK-DB-003 (attempt 1) recorded.outcome: expected "cancelled", found "timeout"',
      'TASK-DB-003 (attempt 1) recorded.turns: expected 18, found 17',
      'TASK-DB-003 (attempt 1) recorded.stall: expected none (the records show no stall detector firing), found {"turn":3,"signature":"bbaba24c"}',
      'TASK-DB-003 (attempt 1) recorded.criteria turn 2: expected 0/6, found no such turn',
    ])
    const none = view({tasks: [task({taskId: 'TASK-DB-001'})]})
    expect(checkRecorded(t, none)).toEqual(['TASK-DB-003 (attempt 1): expected in the report, found only TASK-DB-001 (attempt 1)'])
    expect(checkProfile(t, 'legacy', view({tasks: [task({replays: {}})]}))).toEqual(['TASK-DB-003 (attempt 1) under legacy: expected a replay, found replays only under no profile'])
  })
})
