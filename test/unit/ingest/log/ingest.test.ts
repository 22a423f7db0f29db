import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'
import type {LogIngestResult} from '../../../../src/ingest/build-from-log.js'
import type {TaskRun} from '../../../../src/model/run-record.js'

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)))

function ingestText(text: string, file = 'run.log'): LogIngestResult {
  const ingest = createLogIngest()
  ingest.startFile(file)
  for (const line of text.split('\n')) ingest.push(line)
  return ingest.finish()
}

function ingestBytes(bytes: Uint8Array, file: string): LogIngestResult {
  const ingest = createLogIngest()
  ingest.startFile(file)
  ingest.pushBytes(bytes)
  return ingest.finish()
}

function task(r: LogIngestResult, taskId: string, attempt = 1): TaskRun {
  const t = r.tasks.find((x) => x.taskId === taskId && x.attempt === attempt)
  if (t === undefined) throw new Error(`no ${taskId} attempt ${attempt}`)
  return t
}

const seq = (t: TaskRun) => t.turns.map((u) => `${u.turn}:${u.coach.criteriaMet?.value ?? '-'}/${u.coach.criteriaTotal?.value ?? '-'} ${u.coach.decision?.value ?? '?'}`)

describe('a parallel wave (fixtures/parallel-wave.log, written after docs/record-formats.md §5.2 forge-run-1 and §5.4a)', () => {
  const r = ingestBytes(fixture('parallel-wave.log'), 'parallel-wave.log')

  it('finds one attempt with both tasks, their modes and recorded outcomes', () => {
    expect(r.attempts.map((a) => [a.attempt, a.kind, a.featureId, a.startLine, a.command])).toEqual([
      [1, 'feature', 'FEAT-NFI', 1, 'GUARDKIT_LOG_LEVEL=DEBUG guardkit autobuild feature FEAT-NFI --max-turns 5'],
    ])
    expect(r.tasks.map((t) => [t.taskId, t.mode?.value, t.outcome?.value, t.turnCount?.value])).toEqual([
      ['TASK-NFI-001', 'task-work', 'approved', 2],
      ['TASK-NFI-002', 'direct', 'unrecoverable_stall', 2],
    ])
  })

  it('gives each Criteria Progress record to the task of the first unconsumed checkpoint of its turn (§5.2)', () => {
    // lines 41/43: 0/7 then 0/8, followed by the checkpoints of NFI-001 then NFI-002
    expect(seq(task(r, 'TASK-NFI-001'))).toEqual(['1:0/7 feedback', '2:7/7 approve'])
    expect(seq(task(r, 'TASK-NFI-002'))).toEqual(['1:0/8 feedback', '2:0/8 feedback'])
    expect(task(r, 'TASK-NFI-001').turns[0]!.coach.criteriaMet!.evidence).toEqual([{file: 'parallel-wave.log', line: 41}])
    expect(task(r, 'TASK-NFI-002').turns[0]!.coach.rejected!.value).toBe(8)
    expect(task(r, 'TASK-NFI-001').turns[0]!.checkpoint!.value.hash).toBe('aaaa1111')
    expect(task(r, 'TASK-NFI-002').turns[0]!.checkpoint!.value.hash).toBe('bbbb2222')
  })

  it('reads the Coach of the task still validating: test command and result, and the 0/N dump', () => {
    const one = task(r, 'TASK-NFI-001').turns[0]!.coach
    expect(one.testCommand?.value).toBe('pytest tests/test_nfi_001.py -v --tb=short')
    expect(one.independentTests?.value).toEqual({passed: false, durationSeconds: 1.7})
    expect(one.independentTests?.evidence).toEqual([{file: 'parallel-wave.log', line: 39}])
    const two = task(r, 'TASK-NFI-002').turns[0]!.coach
    expect(two.diagnosticDump?.value).toMatchObject({met: 0, total: 8, criteria: ['First criterion of NFI-002', 'Second criterion of NFI-002'],
      requirementsMet: '[]', completionPromises: '(not used)', matchingStrategy: 'text', synthetic: false})
    expect(two.diagnosticDump?.value.lines).toHaveLength(7)
    expect(two.missingCriteria?.value).toEqual(['First criterion of NFI-002', 'Second criterion of NFI-002'])
    expect(two.independentTests?.value.skipped).toBe(true)
  })

  it('takes decisions and Player results from the summary table, even with a record printed inside it', () => {
    const t = task(r, 'TASK-NFI-002')
    expect(t.summary?.map((s) => [s.turn, s.phase, s.status])).toEqual([
      [1, 'Player Implementation', 'success'], [1, 'Coach Validation', 'feedback'],
      [2, 'Player Implementation', 'success'], [2, 'Coach Validation', 'feedback'],
    ])
    expect(t.summary?.[1]?.summary).toBe('Feedback: - Not all acceptance criteria met:\n• First criterion of NFI-002')
    expect(t.turns[0]!.player.filesCreated?.value).toBe(2)
    expect(task(r, 'TASK-NFI-001').turns[1]!.coach.decision?.evidence[0]).toEqual({file: 'parallel-wave.log', line: 74})
  })

  it('records the stall exactly as logged, with the newer ERROR wording as an era marker (D30)', () => {
    expect(task(r, 'TASK-NFI-002').stall).toMatchObject({kind: 'feedback', turn: 2, signature: '0123abcd', windowTurns: 3, criteriaPassing: 0, extended: false})
    expect(r.eraMarkers.find((m) => m.id === 'stall-error-v2')?.evidence).toEqual([{file: 'parallel-wave.log', line: 98}])
    expect(r.eraMarkers.some((m) => m.id === 'stall-error-v1')).toBe(false)
  })

  it('keeps multi-line progress feedback whole', () => {
    const fb = task(r, 'TASK-NFI-002').turns[1]!.coach.feedback
    expect(fb).toMatchObject({text: '- Not all acceptance criteria met:\n  • First criterion of NFI-002', completeness: 'full'})
    expect(fb?.evidence).toEqual([{file: 'parallel-wave.log', line: 92}])
  })

  it('keeps the settings of the run and the tool-call keys (D2)', () => {
    const a = r.attempts[0]!
    expect(a.settings.maxTurns?.value).toBe(5)
    expect(a.settings.taskTimeoutSeconds?.value).toBe(2400)
    expect(a.settings.resetTurns?.value).toEqual([3, 5])
    expect(a.featureResult?.value).toBe('failed')
    expect(a.waves).toEqual([expect.objectContaining({wave: 1, taskIds: ['TASK-NFI-001', 'TASK-NFI-002']})])
    expect(task(r, 'TASK-NFI-001').turns[0]!.player.toolInputKeys?.value).toEqual([['file_path', 'content']])
  })
})

describe('several runs in one file, the last cut off (fixtures/two-attempts-truncated.log)', () => {
  const r = ingestBytes(fixture('two-attempts-truncated.log'), 'two-attempts-truncated.log')

  it('starts an attempt at each shell prompt followed by an orchestration start, with the whole wrapped command', () => {
    expect(r.attempts.map((a) => [a.attempt, a.kind, a.startLine, a.endLine, a.command, a.truncated])).toEqual([
      [1, 'task', 1, 27, 'guardkit autobuild task TASK-ONE --max-turns 3', false],
      [2, 'task', 28, 42, 'guardkit autobuild task TASK-ONE --max-turns 3 --fresh', true],
    ])
  })

  it('keeps the outcome of the first run and none for the cut one, leaving out the turn that produced nothing', () => {
    expect(task(r, 'TASK-ONE', 1).outcome?.value).toBe('approved')
    expect(seq(task(r, 'TASK-ONE', 1))).toEqual(['1:0/4 feedback', '2:4/4 approve'])
    const cut = task(r, 'TASK-ONE', 2)
    expect(cut.outcome).toBeNull()
    expect(seq(cut)).toEqual(['1:1/4 feedback'])
    expect(r.ingestIssues).toContainEqual(expect.objectContaining({code: 'truncated', file: 'two-attempts-truncated.log', line: 42}))
  })

  it('records the Player SDK timeout and the state recovery of turn 1', () => {
    const t = task(r, 'TASK-ONE', 1)
    expect(t.turns[0]!.player.status?.value).toBe('error')
    expect(t.turns[0]!.stateRecovery?.value).toEqual({reason: 'SDK timeout after 900s: task-work execution exceeded 900s timeout', method: 'git_only', files: 13, tests: 0, testsPassing: false})
    expect(t.events.filter((e) => e.kind === 'player-timeout').map((e) => e.evidence[0]?.line)).toEqual([9, 11])
    expect(t.turns[0]!.coach.feedback).toMatchObject({text: '- task-work execution exceeded 900s timeout', completeness: 'full'})
  })
})

describe('incremental and multi-file ingest', () => {
  it('shows a build as it runs (live) and ends with what a batch ingest gives', () => {
    const lines = fixture('two-attempts-truncated.log').toString('utf8').split('\n')
    const live = createLogIngest()
    live.startFile('run.log')
    for (const l of lines.slice(0, 20)) live.push(l)
    expect(live.snapshot().tasks).toEqual([]) // still in the look-ahead window
    live.flush()
    const during = live.snapshot()
    expect(during.tasks.map((t) => [t.taskId, t.outcome?.value ?? null])).toEqual([['TASK-ONE', null]])
    for (const l of lines.slice(20)) live.push(l)
    const batch = createLogIngest()
    batch.startFile('run.log')
    for (const l of lines) batch.push(l)
    expect(live.finish()).toEqual(batch.finish())
  })

  it('numbers attempts across the logs of a directory and keeps each value\'s file', () => {
    const ingest = createLogIngest()
    for (const file of ['a.log', 'b.log']) {
      ingest.startFile(file)
      ingest.push('INFO:guardkit.cli.autobuild:Starting orchestration for TASK-M (resume=False)')
      ingest.push('INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-M, decision=approved, turns=1')
      ingest.endFile()
    }
    const r = ingest.finish()
    expect(r.attempts.map((a) => [a.attempt, a.file])).toEqual([[1, 'a.log'], [2, 'b.log']])
    expect(r.tasks.map((t) => [t.taskId, t.attempt, t.outcome?.evidence[0]])).toEqual([
      ['TASK-M', 1, {file: 'a.log', line: 2}],
      ['TASK-M', 2, {file: 'b.log', line: 2}],
    ])
  })
})

describe('physical format hazards (docs/record-formats.md §5.1)', () => {
  it('reads CRLF line ends, ANSI colours and carriage-return redraws', () => {
    const text = [
      '\x1b[32mINFO\x1b[0m:guardkit.orchestrator.autobuild:Starting orchestration for TASK-A (resume=False)\r',
      '⠋ Turn 1/5: Player Implementation   0%\r⠙ Turn 1/5: Player Implementation   0%\rINFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-A, decision=approved, turns=1\r',
    ].join('\n')
    const r = ingestText(text)
    expect(r.tasks.map((t) => [t.taskId, t.outcome?.value, t.outcome?.evidence[0]?.line])).toEqual([['TASK-A', 'approved', 2]])
  })

  it('cuts the percentage feedback of a progress line at 80 code points and says so', () => {
    const body = `- Not all acceptance criteria met:\n  • \`tests/seam/\` directory exists with \`__in`
    expect(Array.from(body)).toHaveLength(80)
    const r = ingestText([
      'INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-A (resume=False)',
      'INFO:guardkit.orchestrator.quality_gates.coach_validator:Starting Coach validation for TASK-A turn 1',
      `INFO:guardkit.orchestrator.progress:Completed turn 1: feedback - Feedback: ${body}...`,
    ].join('\n'))
    expect(task(r, 'TASK-A').turns[0]!.coach.feedback).toMatchObject({text: body, completeness: 'truncated', truncatedAt: 80})
  })

  it('turns bad input into issues with file and line and reads the rest', () => {
    const ingest = createLogIngest({maxLineChars: 1000})
    ingest.startFile('empty.log')
    ingest.endFile()
    ingest.startFile('mixed.log')
    ingest.push('INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-B (resume=False)')
    ingest.pushBytes(new Uint8Array([0x00, 0x01, 0xff, 0x0a]))
    ingest.pushBytes(new TextEncoder().encode(`${'x'.repeat(5000)}\n`))
    ingest.pushBytes(new TextEncoder().encode('INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-B, decision=error, turns=1\n'))
    const r = ingest.finish()
    expect(r.ingestIssues).toEqual(expect.arrayContaining([
      expect.objectContaining({file: 'empty.log', code: 'empty'}),
      expect.objectContaining({file: 'mixed.log', line: 2, code: 'binary'}),
      expect.objectContaining({file: 'mixed.log', line: 3, code: 'too-long-line'}),
    ]))
    expect(task(r, 'TASK-B').outcome?.value).toBe('error')
    expect(r.logs).toEqual(['empty.log', 'mixed.log'])
  })

  it('counts records nobody recognises per logger, and reports them', () => {
    const seen: string[] = []
    const ingest = createLogIngest({onUnrecognised: (_f, line, text) => seen.push(`${line} ${text}`)})
    ingest.startFile('x.log')
    ingest.push('INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-C (resume=False)')
    ingest.push('INFO:some.other.lib:a message of a shape nobody knows')
    ingest.push('INFO:some.other.lib:another one')
    const r = ingest.finish()
    expect(r.loggerStats).toContainEqual({logger: 'some.other.lib', parsed: 0, counted: 2})
    expect(r.loggerStats).toContainEqual({logger: 'guardkit.orchestrator.autobuild', parsed: 1, counted: 0})
    expect(seen).toEqual(['2 INFO:some.other.lib:a message of a shape nobody knows', '3 INFO:some.other.lib:another one'])
    expect(r.ingestIssues).toContainEqual(expect.objectContaining({file: 'x.log', line: 2, code: 'unrecognised-records'}))
  })

  it('says an unrecognised record of a trouble shape is read as a signal, not that it is not used (a finding can quote it)', () => {
    const ingest = createLogIngest()
    ingest.startFile('x.log')
    ingest.push('dev@box proj % guardkit autobuild feature FEAT-AB12')
    ingest.push('INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-AB12 (max_turns=5, stop_on_failure=True, resume=False)')
    ingest.push("WARNING:some.other.lib:Cannot copy tasks: 'tasks' directory not found in path: .")
    ingest.push('INFO:some.other.lib:a message of a shape nobody knows')
    const r = ingest.finish()
    expect(r.attempts[0]!.signals?.map((s) => s.evidence.line)).toEqual([3])
    const issue = r.ingestIssues.find((i) => i.code === 'unrecognised-records')!
    expect(issue.line).toBe(3)
    expect(issue.message).toContain('1 of them read as signals')
    expect(issue.message).not.toMatch(/matched no known format[^;]*; they are counted per logger, not used/)
  })

  it('reports a log with no AutoBuild output at all', () => {
    const r = ingestText('hello\nworld')
    expect(r.attempts).toEqual([])
    expect(r.ingestIssues).toContainEqual(expect.objectContaining({code: 'no-records'}))
  })
})
