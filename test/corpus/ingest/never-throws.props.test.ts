import {describe, expect, it} from 'vitest'
import {collectArtifactBases, describeArtifactIngestNeverThrows, FILE_NAMES} from '../../helpers/artifact-ingest.js'
import {CORPUS_ARTIFACTS} from '../helpers.js'

// test/unit/ingest/never-throws.props.test.ts runs these properties from authored files; here the files the
// generators mutate are GuardKit's own, one of each kind the corpus holds.
const BASES = collectArtifactBases([CORPUS_ARTIFACTS])

describe('GuardKit\'s own starting points', () => {
  it('cover every kind the authored set covers (all but phase_4_checkpoint, which no corpus set holds)', () => {
    expect(FILE_NAMES.flatMap(([, k]) => (k !== null && !BASES.has(k) ? [k] : []))).toEqual(['phase_4_checkpoint'])
  })
})

describeArtifactIngestNeverThrows('the artifact ingest never throws, from GuardKit\'s own files (docs/ingest.md)', BASES)
