import {z} from 'zod'
import {PyInt, Str} from './common.schema.js'

/** docs/recording-format.md: the manifest at the top of a recording written by `record`/`live`. */
export {RECORDING_MANIFEST_NAME} from '../discovery/limits.js'
export const RECORDING_FORMAT = 'guardkit-replay/recording'

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 (64 lower-case hex digits)')

export const RecordingManifestV1Schema = z.looseObject({
  format: z.literal(RECORDING_FORMAT),
  formatVersion: z.literal(1),
  tool: z.looseObject({name: Str, version: Str}),
  createdBy: z.enum(['record', 'live', 'authored']).optional(),
  redacted: z.boolean().optional(),
  /** Every file of the recording with its hash, so an edited recording is noticed. */
  files: z.array(z.looseObject({path: Str, sha256: Sha256, bytes: PyInt.optional()})),
  /** Files read as logs whatever their name or place; without it, the top-level `*.log` files listed. */
  logs: z.array(Str).optional(),
  /** Earlier versions of files GuardKit overwrote while the build ran, oldest first per path. */
  versions: z.array(z.looseObject({
    path: Str,
    version: PyInt,
    file: Str,
    seenAt: Str.nullable().optional(),
    sha256: Sha256.optional(),
    note: Str.nullable().optional(),
  })).optional(),
  /** Where the recorder may have missed a version. */
  gaps: z.array(z.looseObject({path: Str, message: Str})).optional(),
})
export type RawRecordingManifestV1 = z.infer<typeof RecordingManifestV1Schema>
