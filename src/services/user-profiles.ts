import {parseDocument, type Document} from 'yaml'
import {readUserFile} from '../ingest/index.js'
import {yamlNestingError} from '../logic/python/py-yaml.js'
import {z} from 'zod'
import {asRunProfileNames, BUILTIN_PROFILE_NAMES, resolveProfile, type Profile, type ProfileDefinition} from '../logic/profiles.js'
import {FLAG_IDS, isFlagId} from '../logic/changes.js'
import {UsageError} from '../shared/errors.js'
import {didYouMean} from '../shared/suggest.js'
import {neutralised} from '../shared/neutralise.js'

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
    text = await readUserFile(file)
  } catch (error) {
    throw new UsageError(neutralised`Cannot read the profiles file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`)
  }
  const deep = yamlNestingError(text)
  if (deep !== null) throw new UsageError(neutralised`${file} is not valid YAML: ${deep}.`, SHAPE)
  const doc = parseDocument(text)
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!
    throw new UsageError(neutralised`${file}:${e.linePos?.[0]?.line ?? '?'}: not valid YAML: ${e.message.split('\n')[0]!.replace(/:$/, '')}`, SHAPE)
  }
  const data: unknown = doc.toJS()
  const parsed = ProfilesFileSchema.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new UsageError(`${where(file, text, doc, issue.path as (string | number)[])}: ${issue.message}`, SHAPE)
  }
  const user = Object.entries(parsed.data.profiles).map(([name, p]) => ({name, ...p}))
  checkProfiles(user, file, text, doc)
  return user
}

const SHAPE = 'Expected `profiles: {NAME: {base: legacy, with: [flagId, …], without: [flagId, …]}}`; `guardkit-replay profiles` lists the profiles and flag ids.'
const KEYS = ['description', 'base', 'with', 'without']

/**
 * Every profile of the file is checked when the file is read, not when a profile is first used: an
 * unknown key (`wiht:`), a base or flag that does not exist (`base: legcy`) or a base that refers
 * back to itself is an error naming the file, line and path, with the closest valid name.
 */
function checkProfiles(user: readonly ProfileDefinition[], file: string, text: string, doc: Document): void {
  const bases = [...BUILTIN_PROFILE_NAMES, ...asRunProfileNames(), ...user.map((p) => p.name)]
  for (const p of user) {
    const at = (...path: (string | number)[]) => where(file, text, doc, ['profiles', p.name, ...path])
    for (const key of Object.keys(p)) {
      if (key !== 'name' && !KEYS.includes(key)) throw new UsageError(`${at(key)}: profile "${p.name}" has no setting "${key}".${didYouMean(key, KEYS)}`, SHAPE)
    }
    if (p.base !== undefined && p.base !== p.name && resolveProfile(p.base, user).ok === false && !user.some((u) => u.name === p.base)) {
      throw new UsageError(`${at('base')}: profile "${p.name}": no profile "${p.base}" to build on.${didYouMean(p.base, bases)}`, SHAPE)
    }
    for (const side of ['with', 'without'] as const) {
      for (const [i, id] of (p[side] ?? []).entries()) {
        if (!isFlagId(id)) throw new UsageError(`${at(side, i)}: profile "${p.name}": no logic change "${id}".${didYouMean(id, FLAG_IDS)}`, SHAPE)
      }
    }
    const result = resolveProfile(p.name, user)
    if (!result.ok) throw new UsageError(`${at()}: ${result.message}`, SHAPE)
  }
}

/** `file:line: /profiles/NAME/base` for a path into the YAML document (the line when the node has one). */
function where(file: string, text: string, doc: Document, path: readonly (string | number)[]): string {
  const node = doc.getIn(path, true) as {range?: [number, number, number]} | undefined
  const offset = node?.range?.[0]
  const line = offset === undefined ? null : text.slice(0, offset).split('\n').length
  return `${file}${line === null ? '' : `:${line}`}: /${path.join('/')}`
}

/** Resolve a profile name (built-in or the user's) into one profile, or a usage error. `--with`/`--without` are checked
 * where a replay request is built (services/run-options.ts). */
export function resolveProfileOrThrow(name: string, user: readonly ProfileDefinition[]): Profile {
  const result = resolveProfile(name, user)
  if (!result.ok) throw new UsageError(result.message)
  return result.profile
}
