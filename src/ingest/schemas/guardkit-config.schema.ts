import {z} from 'zod'

/** `.guardkit/config.yaml`: project settings. No staged example; every key is kept, none is relied on. */
export const GuardkitConfigV1Schema = z.looseObject({})
export type RawGuardkitConfigV1 = z.infer<typeof GuardkitConfigV1Schema>
