import {describe, expect, it} from 'vitest'
import type {ParsedEvent} from '../../../../src/ingest/log/events.js'
import {classifyToolCall, createTranscriptReader, type Held, recordHash} from '../../../../src/ingest/log/transcript.js'

describe('transcript tool calls (docs/ingest.md "Transcripts")', () => {
  it('tells a GuardKit run from a look at its output, and names the background shell', () => {
    expect(classifyToolCall('Bash', 'guardkit-py autobuild feature FEAT-E1A --max-turns 3')).toEqual({kind: 'run', command: 'guardkit-py autobuild feature FEAT-E1A --max-turns 3'})
    expect(classifyToolCall('Bash', 'guardkit autobuild task TASK-X-001 2>&1 | tail -50').kind).toBe('run')
    expect(classifyToolCall('Task Output', 'b4e1c2a')).toEqual({kind: 'view', source: 'b4e1c2a', command: 'Task Output b4e1c2a'})
    expect(classifyToolCall('Read agent output', 'b4e1c2a')).toMatchObject({kind: 'view', source: 'b4e1c2a'})
    expect(classifyToolCall('Bash', 'sleep 60 && tail -30 /tmp/claude/-Users-dev-proj/tasks/b4e1c2a.output')).toMatchObject({kind: 'view', source: 'b4e1c2a'})
    expect(classifyToolCall('Bash', 'sleep 60 && tail -30 /tmp/claude/-Users-dev-proj')).toMatchObject({kind: 'view', source: null})
    expect(classifyToolCall('Kill Shell', 'Kill shell: c2d8f1b')).toEqual({kind: 'kill', source: 'c2d8f1b'})
    expect(classifyToolCall('Bash', 'guardkit autobuild --help').kind).toBe('other')
    expect(classifyToolCall('Read', '/Users/dev/proj/.guardkit/features/FEAT-E1A.yaml').kind).toBe('other')
    expect(classifyToolCall(null, 'The build is running.').kind).toBe('other')
  })
})

/** A record as the reader sees it: its hash is its text. */
function rec(line: number, message: string, kind: ParsedEvent["kind"] = "note"): Held {
  const event = (kind === 'cli-start' ? {kind, mode: 'feature', featureId: 'FEAT-X', params: {}} : {kind: 'note', name: message}) as ParsedEvent
  return {event, line, logger: 'guardkit.orchestrator.autobuild', level: 'INFO', hash: recordHash('INFO', 'guardkit.orchestrator.autobuild', message), message}
}

function reader() {
  const routed: {line: number; to: number | null}[] = []
  let attempts = 0
  const r = createTranscriptReader({
    route: (h, to) => routed.push({line: h.line, to}),
    open: () => ++attempts,
    resume: () => undefined,
  })
  return {r, routed, attempts: () => attempts}
}

const RUN = ['Starting feature orchestration: FEAT-X', 'Executing turn 1/3', 'Player turn 1', 'Coach turn 1', 'Executing turn 2/3', 'Player turn 2', 'Coach turn 2', 'done']

describe('a run printed more than once is read once', () => {
  it('reads a longer print again only from where the first one stopped', () => {
    const {r, routed, attempts} = reader()
    r.toolCall({kind: 'view', source: 'b1', command: 'Task Output b1'}, 1)
    RUN.slice(0, 4).forEach((m, i) => r.inPrint(rec(2 + i, m, i === 0 ? 'cli-start' : 'note')))
    r.toolCall({kind: 'view', source: 'b1', command: 'Task Output b1'}, 10)
    RUN.forEach((m, i) => r.inPrint(rec(11 + i, m, i === 0 ? 'cli-start' : 'note')))
    const issues = r.finish('run.log')
    expect(attempts()).toBe(1)
    expect(routed.filter((x) => x.to !== null).map((x) => x.line)).toEqual([2, 3, 4, 5, 15, 16, 17, 18])
    expect(issues).toEqual([expect.objectContaining({code: 'repeated-output', line: 10, severity: 'info'})])
  })

  it('finds where a tail that starts mid-run sits in the run', () => {
    const {r, routed} = reader()
    r.toolCall({kind: 'view', source: null, command: 'tail'}, 1)
    RUN.slice(0, 7).forEach((m, i) => r.inPrint(rec(2 + i, m, i === 0 ? 'cli-start' : 'note')))
    r.toolCall({kind: 'view', source: null, command: 'tail'}, 20)
    // a window of the last records (six to anchor it) and one new record
    RUN.slice(1).forEach((m, i) => r.inPrint(rec(21 + i, m)))
    r.finish('run.log')
    expect(routed.filter((x) => x.to !== null).map((x) => x.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 27])
  })

  it('reads a run that starts alike but goes another way as a run of its own', () => {
    const {r, routed, attempts} = reader()
    r.toolCall({kind: 'view', source: null, command: 'tail'}, 1)
    RUN.slice(0, 3).forEach((m, i) => r.inPrint(rec(2 + i, m, i === 0 ? 'cli-start' : 'note')))
    r.toolCall({kind: 'view', source: null, command: 'tail'}, 10)
    ;[RUN[0]!, RUN[1]!, 'another Player', 'another Coach', 'another end'].forEach((m, i) => r.inPrint(rec(11 + i, m, i === 0 ? 'cli-start' : 'note')))
    expect(r.finish('run.log')).toEqual([])
    expect(attempts()).toBe(2)
    expect(routed.filter((x) => x.to === 2).map((x) => x.line)).toEqual([11, 12, 13, 14, 15])
  })

  it('reads whole a record that an earlier print cut off', () => {
    const {r, routed} = reader()
    r.toolCall({kind: 'view', source: 'b1', command: 'Task Output b1'}, 1)
    r.inPrint(rec(2, RUN[0]!, 'cli-start'))
    r.inPrint(rec(3, 'Quality gate evaluation complete: tests=True'))
    r.toolCall({kind: 'view', source: 'b1', command: 'Task Output b1'}, 10)
    r.inPrint(rec(11, RUN[0]!, 'cli-start'))
    r.inPrint(rec(12, 'Quality gate evaluation complete: tests=True (required=True), ALL_PASSED=False'))
    r.inPrint(rec(13, 'Coach turn 1'))
    r.finish('run.log')
    expect(routed.filter((x) => x.to !== null).map((x) => x.line)).toEqual([2, 3, 12, 13])
  })

  it('never takes the print of one background shell for another shell\'s run', () => {
    const {r, attempts} = reader()
    r.toolCall({kind: 'view', source: 'b1', command: 'Task Output b1'}, 1)
    RUN.slice(0, 3).forEach((m, i) => r.inPrint(rec(2 + i, m, i === 0 ? 'cli-start' : 'note')))
    r.toolCall({kind: 'view', source: 'c2', command: 'Task Output c2'}, 10)
    RUN.slice(0, 3).forEach((m, i) => r.inPrint(rec(11 + i, m, i === 0 ? 'cli-start' : 'note')))
    r.finish('run.log')
    expect(attempts()).toBe(2)
    expect(r.attemptOf('c2')).toBe(2)
  })
})
