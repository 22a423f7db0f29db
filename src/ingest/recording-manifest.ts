/**
 * The recording manifest's schema (docs/recording-format.md), for `record` and `live`: a public
 * entry of its own because it loads zod, which a plain log's analysis never needs.
 */
export {RECORDING_FORMAT, RECORDING_MANIFEST_NAME, RecordingManifestV1Schema} from './schemas/recording-manifest.schema.js'
