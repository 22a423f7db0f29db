import {collectArtifactBases, describeArtifactIngestNeverThrows} from '../../helpers/artifact-ingest.js'
import {CORPUS_ARTIFACTS} from '../helpers.js'

// test/unit/ingest/never-throws.props.test.ts runs these properties from authored files; here the files the
// generators mutate are GuardKit's own, one of each kind the corpus holds.
describeArtifactIngestNeverThrows('the artifact ingest never throws, from GuardKit\'s own files (docs/ingest.md)', collectArtifactBases([CORPUS_ARTIFACTS]))
