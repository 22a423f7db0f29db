import {readFile} from 'node:fs/promises'
import {parse as parseYaml} from 'yaml'
import {z} from 'zod'
import {adjustProfile, resolveProfile, type Profile, type ProfileDefinition} from '../logic/profiles.js'
import {isFlagId, type FlagId} from '../logic/changes.js'
import {UsageError} from '../shared/errors.js'

const ProfilesFileSchema = z.object({
  profiles: z.record(
    z.string(),
    z.looseObject({
      description: z.string().optional(),
      base: z.string().optional(),
      with: z.array(z.string()).optional(),
      without: z.array(z.string()).optional(),
    }),
  ),
})

/**
 * Read a user's profile file:
 *
 *   profiles:
 *     seed-000-only:
 *       base: legacy
 *       with: [recoverAgentPromises, writeBackResults]
 */
export async function loadUserProfiles(file: string | undefined): Promise<ProfileDefinition[]> {
  if (!file) return []
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(`Cannot read the profiles file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`)
  }
  let data: unknown
  try {
    data = parseYaml(text)
  } catch (error) {
    throw new UsageError(`${file} is not valid YAML: ${(error as Error).message}`)
  }
  const parsed = ProfilesFileSchema.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new UsageError(
      `${file}: /${issue.path.join('/')} ${issue.message}`,
      'Expected `profiles: {NAME: {base: legacy, with: [flagId, …], without: [flagId, …]}}`; `guardkit-replay profiles` lists the flag ids.',
    )
  }
  return Object.entries(parsed.data.profiles).map(([name, p]) => ({name, ...p}))
}

/** Resolve `--profile` + `--with`/`--without` (and user profiles) into one profile, or a usage error. */
export function resolveProfileOrThrow(name: string, user: readonly ProfileDefinition[], withFlags: readonly string[] = [], withoutFlags: readonly string[] = []): Profile {
  const result = resolveProfile(name, user)
  if (!result.ok) throw new UsageError(result.message)
  return adjustProfile(result.profile, checkFlags(withFlags, '--with'), checkFlags(withoutFlags, '--without'))
}

function checkFlags(ids: readonly string[], flag: string): FlagId[] {
  return ids.map((id) => {
    if (!isFlagId(id)) throw new UsageError(`${flag} ${id}: no such logic change.`, 'Run `guardkit-replay profiles` for the list of flag ids.')
    return id
  })
}
