import * as Flags from '@oclif/core/flags'
import {isFlagId, type FlagId} from '../logic/changes.js'
import {adjustProfile, resolveProfile, type Profile, type ProfileDefinition} from '../logic/profiles.js'
import {PLAIN, type Palette} from '../render/text/plain-palette.js'
import {UsageError} from '../shared/errors.js'
import {colourEnabled} from './terminal.js'

/** The flags every command that replays a run shares: which logic profiles, and how to print. */
export const profileFlags = {
  profile: Flags.string({
    multiple: true,
    helpValue: 'NAME',
    description: 'replay under this profile instead of the defaults (repeatable): legacy, fixed, pre-acr, as-run:<commit>, or one from --profiles',
  }),
  with: Flags.string({multiple: true, helpValue: 'FLAG', description: 'turn this logic change on (repeatable; `guardkit-replay profiles` lists them)'}),
  without: Flags.string({multiple: true, helpValue: 'FLAG', description: 'turn this logic change off (repeatable)'}),
  profiles: Flags.string({helpValue: 'FILE', description: 'YAML file of your own profiles: profiles: {NAME: {base, with: [flag…], without: [flag…]}}'}),
}

export const outputFlags = {
  format: Flags.option({options: ['text', 'md', 'json'] as const, default: 'text' as const, description: 'text for a terminal, md for a pull request or issue comment, json (= --json)'})(),
  verbose: Flags.boolean({char: 'v', default: false, description: 'every turn, with evidence lines'}),
}

export type OutputFormat = 'text' | 'md' | 'json'

export interface ProfileRequest {
  /** `--profile` names, in order (empty: the defaults). */
  readonly names: readonly string[]
  readonly with: readonly string[]
  readonly without: readonly string[]
  readonly profilesFile?: string
}

/** The profile flags as parsed (`profileFlags`) → what `chooseProfiles` takes. */
export function profileRequest(flags: {profile?: string[]; with?: string[]; without?: string[]; profiles?: string}): ProfileRequest {
  return {names: flags.profile ?? [], with: flags.with ?? [], without: flags.without ?? [], profilesFile: flags.profiles}
}

export interface ProfileChoice {
  readonly user: readonly ProfileDefinition[]
  /** Resolve the profiles to replay once the run's era is known (null: no era profile). */
  readonly resolve: (eraProfile: string | null) => Profile[]
}

/**
 * `--profile`, `--with`, `--without`, `--profiles` → the profiles to replay. Without `--profile`:
 * the run's era (when inferred), `legacy` and `fixed`; `--with`/`--without` then add one more, the
 * era's profile (or `legacy`) adjusted, so its effect shows beside the defaults. With `--profile`,
 * exactly those, each adjusted. Unknown names and flags are usage errors (exit 2), found before
 * RUN is read.
 */
export async function chooseProfiles(request: ProfileRequest): Promise<ProfileChoice> {
  // the profiles file needs yaml and zod: loaded only when one is given
  const user = request.profilesFile === undefined ? [] : await (await import('./user-profiles.js')).loadUserProfiles(request.profilesFile)
  const withFlags = checkFlags(request.with, '--with')
  const withoutFlags = checkFlags(request.without, '--without')
  const plain = (name: string): Profile => {
    const result = resolveProfile(name, user)
    if (!result.ok) throw new UsageError(result.message)
    return result.profile
  }
  const adjust = (name: string) => adjustProfile(plain(name), withFlags, withoutFlags)
  const adjusting = withFlags.length > 0 || withoutFlags.length > 0
  // fail fast on a bad name, before reading RUN
  for (const name of request.names) plain(name)
  return {
    user,
    resolve(eraProfile) {
      if (request.names.length > 0) return dedupe(request.names.map(adjust))
      const defaults = [...(eraProfile === null ? [] : [plain(eraProfile)]), plain('legacy'), plain('fixed')]
      return dedupe(adjusting ? [...defaults, adjust(eraProfile ?? 'legacy')] : defaults)
    },
  }
}

function dedupe(profiles: readonly Profile[]): Profile[] {
  return profiles.filter((p, i) => profiles.findIndex((q) => q.name === p.name) === i)
}

function checkFlags(ids: readonly string[], flag: string): FlagId[] {
  return ids.map((id) => {
    if (!isFlagId(id)) throw new UsageError(`${flag} ${id}: no such logic change.`, 'Run `guardkit-replay profiles` for the list of flag ids.')
    return id
  })
}

/** chalk's palette when stdout takes colour (loaded only then), else none. */
export async function terminalPalette(): Promise<Palette> {
  if (!colourEnabled()) return PLAIN
  const {createPalette} = await import('../render/text/palette.js')
  return createPalette(true)
}

/** Columns to lay text out in: the terminal's, or 100 when stdout is not a terminal. */
export function outputWidth(stream: NodeJS.WriteStream = process.stdout): number {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : 100
}

export {printJson} from '../shared/print-json.js'
