import {describe, expect, it} from 'vitest'
import {checkRedactedFiles, redactFiles} from '../../../src/services/record-redact.js'
import type {PreparedFile} from '../../../src/services/record-messages.js'
import {UsageError} from '../../../src/shared/errors.js'

// record parses every redacted file again before it writes anything (docs/recording-format.md): one that
// would not parse is an exit-2 error naming the file and where it breaks.

const file = (path: string, text: string): PreparedFile => ({path, bytes: new Uint8Array(Buffer.from(text, 'latin1')), hits: [], role: 'other'})
const NONE = {users: [], hosts: [], homes: []}

describe('redactFiles and the parse check', () => {
  it('JSON, YAML and task files redacted by record parse as before', () => {
    const plain = [
      file('.guardkit/autobuild/TASK-A-001/coach_turn_1.json', '{"rationale": "x\\nuser@corp-mail.io\\t/Users/alice/y", "api_key": "Zx9Yw8Vu7Ts6"}'),
      file('.guardkit/features/FEAT-A.yaml', 'id: FEAT-A\nnotes: |\n  owner jane.doe@corp-mail.io\n  SLACK_TOKEN=xoxb-1234567890-abcdefghij\ntasks: [{id: TASK-A-001}]\n'),
      file('tasks/backlog/TASK-A-001-x.md', '---\nid: TASK-A-001\npassword: "two words"\n---\n# body /Users/alice/z\n'),
    ]
    const redacted = redactFiles(plain, NONE)
    expect(() => checkRedactedFiles(plain, redacted)).not.toThrow()
    const texts = redacted.map((f) => Buffer.from(f.bytes).toString('latin1'))
    for (const gone of ['user@corp-mail', 'alice', 'Zx9Yw8Vu7Ts6', 'jane.doe', 'abcdefghij', 'two words']) for (const t of texts) expect(t).not.toContain(gone)
    // homes are learned before addresses: alice is user1, the 4-letter `user` u2xx; same lengths throughout
    expect(JSON.parse(texts[0]!)).toEqual({rationale: 'x\nu2xx@host1xxxx.io\t/Users/user1/y', api_key: 'REDACTED1xxx'})
  })

  it('a redacted JSON file that would not parse: exit 2, naming the file and the pointer', () => {
    const before = file('.guardkit/autobuild/TASK-A-001/coach_turn_1.json', '{"a": {"b": "x"}}')
    const broken: PreparedFile = {...before, bytes: new Uint8Array(Buffer.from('{"a": {"b": "x\\q"}}')), hits: [{kind: 'email', start: 14, end: 15, pointer: '/a/b'} as never]}
    expect(() => checkRedactedFiles([before], [broken])).toThrow(UsageError)
    expect(() => checkRedactedFiles([before], [broken])).toThrow(/coach_turn_1\.json would leave it broken \(at \/a\/b: not valid JSON any more/)
    const reshaped: PreparedFile = {...broken, bytes: new Uint8Array(Buffer.from('{"a": {"b": 1}}'))}
    expect(() => checkRedactedFiles([before], [reshaped])).toThrow(/at \/a\/b: the value changed kind/)
  })

  it('a YAML file that would not parse: exit 2, naming the file and the line', () => {
    const before = file('.guardkit/features/FEAT-A.yaml', 'id: FEAT-A\nx: [a, b]\n')
    const broken: PreparedFile = {...before, bytes: new Uint8Array(Buffer.from('id: FEAT-A\nx: [a, b\n')), hits: [{kind: 'secret', start: 15, end: 16}]}
    expect(() => checkRedactedFiles([before], [broken])).toThrow(/FEAT-A\.yaml would leave it broken \(line 3: not valid YAML any more/)
  })

  it('a file that did not parse before (a run cut mid-write) is recorded as it is', () => {
    const before = file('.guardkit/autobuild/TASK-A-001/coach_turn_2.json', '{"decision": "feedb')
    const after = redactFiles([before], NONE)
    expect(() => checkRedactedFiles([before], [{...after[0]!, hits: [{kind: 'email', start: 0, end: 1}]}])).not.toThrow()
  })
})
