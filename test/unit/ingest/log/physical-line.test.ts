import {fc, test} from '../../../helpers/prop.js'
import {describe, expect, it} from 'vitest'
import {splitPhysicalLine} from '../../../../src/ingest/log/physical-line.js'

describe('physical line (docs/record-formats.md §5.1)', () => {
  it('reads a record at the start of a line', () => {
    expect(splitPhysicalLine('INFO:guardkit.orchestrator.autobuild:Executing turn 2/30')).toEqual([
      {kind: 'record', level: 'INFO', logger: 'guardkit.orchestrator.autobuild', message: 'Executing turn 2/30'},
    ])
  })

  it('splits a record glued to another task\'s spinner (run_2.log:270)', () => {
    const line = '⠇ Turn 1/30: Player Implementation ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━   0%INFO:guardkit.orchestrator.agent_invoker:Git detection added: 1 modified, 4 created files for TASK-SFT-001'
    expect(splitPhysicalLine(line)).toEqual([
      {kind: 'console', text: '⠇ Turn 1/30: Player Implementation ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━   0%'},
      {kind: 'record', level: 'INFO', logger: 'guardkit.orchestrator.agent_invoker', message: 'Git detection added: 1 modified, 4 created files for TASK-SFT-001'},
    ])
  })

  it('splits two records sharing a line, and reads logger names holding task ids', () => {
    expect(splitPhysicalLine('x: done5INFO:guardkit.tasks.state_bridge.TASK-DB-003:Moved task file: 100%WARNING:asyncio:Task was destroyed')).toEqual([
      {kind: 'console', text: 'x: done5'},
      {kind: 'record', level: 'INFO', logger: 'guardkit.tasks.state_bridge.TASK-DB-003', message: 'Moved task file: 100%'},
      {kind: 'record', level: 'WARNING', logger: 'asyncio', message: 'Task was destroyed'},
    ])
  })

  it('does not split inside words or at levels without a logger', () => {
    expect(splitPhysicalLine('XINFO:a:b')).toEqual([{kind: 'console', text: 'XINFO:a:b'}])
    expect(splitPhysicalLine('INFO:     127.0.0.1:8000 - "GET /"')).toEqual([{kind: 'console', text: 'INFO:     127.0.0.1:8000 - "GET /"'}])
    expect(splitPhysicalLine('Status: ERROR: see log')).toEqual([{kind: 'console', text: 'Status: ERROR: see log'}])
  })

  it('removes ANSI escapes and reads carriage-return redraws as separate segments', () => {
    expect(splitPhysicalLine('\x1b[1m\x1b[32mINFO\x1b[0m:guardkit.cli.display:Wave 1 complete: passed=1, failed=0\r')).toEqual([
      {kind: 'record', level: 'INFO', logger: 'guardkit.cli.display', message: 'Wave 1 complete: passed=1, failed=0'},
    ])
    expect(splitPhysicalLine('⠋ 10%\r⠙ 20%\rINFO:a.b:c')).toEqual([
      {kind: 'console', text: '⠋ 10%'}, {kind: 'console', text: '⠙ 20%'}, {kind: 'record', level: 'INFO', logger: 'a.b', message: 'c'},
    ])
    expect(splitPhysicalLine('\r')).toEqual([{kind: 'console', text: ''}])
  })

  test.prop([fc.string({unit: 'binary', maxLength: 300})], {numRuns: 500})('never throws and keeps every character of a plain line', (s) => {
    const parts = splitPhysicalLine(s)
    if (!s.includes('\r') && !s.includes('\x1b') && !s.includes('\x9b')) {
      const rebuilt = parts.map((p) => (p.kind === 'console' ? p.text : `${p.level}:${p.logger}:${p.message}`)).join('')
      expect(rebuilt).toBe(s)
    }
  })

  test.prop([fc.array(fc.constantFrom('INFO:', 'ERROR:', 'a.b', ':', 'x', '0%', ' ', 'WARNING:guardkit.x:', '⠋'), {maxLength: 30})], {numRuns: 500})(
    'finds every record start it is given, in order',
    (pieces) => {
      const s = pieces.join('')
      const parts = splitPhysicalLine(s)
      expect(parts.map((p) => (p.kind === 'console' ? p.text : `${p.level}:${p.logger}:${p.message}`)).join('')).toBe(s)
      for (const p of parts) if (p.kind === 'record') expect(p.logger).toMatch(/^[A-Za-z_][\w.-]*$/)
    },
  )
})
