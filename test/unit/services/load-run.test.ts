import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {loadRunContent} from '../../../src/services/load-run.js'
import {UsageError} from '../../../src/shared/errors.js'
import {makeTree, removeTree} from '../../helpers/run-helpers.js'

const roots: string[] = []
afterEach(async () => {
  for (const r of roots.splice(0)) await removeTree(r)
})

/** A review quoting a run's last records in a code block (docs/ingest.md "What RUN may be"). */
const REVIEW = [
  '# Why TASK-X-001 stalled',
  '',
  '```',
  'ERROR:guardkit.orchestrator.autobuild:Unrecoverable stall detected for TASK-X-001: context pollution detected but no passing checkpoint exists.',
  'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-X-001, decision=unrecoverable_stall, turns=3',
  '```',
  '',
].join('\n')

describe('loadRunContent: a RUN with nothing to analyse (exit 2)', () => {
  it('says that a document quoting records is no capture, where its quotes are, and how to capture one', async () => {
    const root = await makeTree({'review.md': REVIEW})
    roots.push(root)
    const error = await loadRunContent(join(root, 'review.md')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UsageError)
    expect((error as UsageError).message).toMatch(/^No AutoBuild log found in .*review\.md\.\n {2}review\.md:4: a Markdown document that quotes 2 GuardKit log records in code blocks among its prose \(lines 4–5\), not a captured AutoBuild run/)
  })
})
