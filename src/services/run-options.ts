import * as Flags from '@oclif/core/flags'
import {FLAG_IDS, isFlagId, type FlagId} from '../logic/changes.js'
import type {ProfileSelection} from '../explain/profile-selection.js'
import {resolveProfile} from '../logic/profiles.js'
import {UsageError} from '../shared/errors.js'
import {didYouMean} from '../shared/suggest.js'
import {neutralised} from '../shared/neutralise.js'

/** The CLI flags (oclif's, not logic-change flags) every command that replays a run shares: which logic profiles, and how to print. */
export const replayCommandFlags = {
  profile: Flags.string({
    multiple: true,
    helpValue: 'NAME',
    description: 'replay under this profile instead of the defaults (repeatable): legacy, fixed, pre-acr, as-run:<commit>, or one from --profiles',
  }),
  with: Flags.string({multiple: true, helpValue: 'FLAG', description: 'turn this logic change on (repeatable; `guardkit-replay profiles` lists them)'}),
  without: Flags.string({multiple: true, helpValue: 'FLAG', description: 'turn this logic change off (repeatable)'}),
  profiles: Flags.string({helpValue: 'FILE', description: 'YAML file of your own profiles: profiles: {NAME: {base, with: [flag…], without: [flag…]}}'}),
  signals: Flags.string({helpValue: 'FILE', description: 'YAML file of your own signal rules (docs/signals.md): they classify log lines before the built-in ones'}),
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
  /** `--signals FILE`: the user's signal rules (docs/signals.md). */
  readonly signalsFile?: string
}

/** The profile CLI flags as parsed (`replayCommandFlags`) → what `chooseProfiles` takes. */
export function profileRequest(flags: {profile?: string[]; with?: string[]; without?: string[]; profiles?: string; signals?: string}): ProfileRequest {
  return {names: flags.profile ?? [], with: flags.with ?? [], without: flags.without ?? [], profilesFile: flags.profiles, signalsFile: flags.signals}
}

/**
 * `--profile`, `--with`, `--without`, `--profiles` → the selection the spine plans from
 * (explain/profile-selection.ts). Unknown names and flags are usage errors (exit 2), found here,
 * before RUN is read.
 */
export async function chooseProfiles(request: ProfileRequest): Promise<ProfileSelection> {
  // the profiles file needs yaml and zod: loaded only when one is given
  const user = request.profilesFile === undefined ? [] : await (await import('./user-profiles.js')).loadUserProfiles(request.profilesFile)
  const withFlags = checkFlags(request.with, '--with')
  const withoutFlags = checkFlags(request.without, '--without')
  for (const name of request.names) {
    const result = resolveProfile(name, user)
    if (!result.ok) throw new UsageError(result.message)
  }
  return {kind: 'request', names: [...request.names], with: withFlags, without: withoutFlags, user}
}

function checkFlags(ids: readonly string[], flag: string): FlagId[] {
  return ids.map((id) => {
    if (!isFlagId(id)) throw new UsageError(neutralised`${flag} ${id}: no such logic change.` + didYouMean(id, FLAG_IDS), 'Try: guardkit-replay profiles (every logic change and its flag id)')
    return id
  })
}

export {printJson} from '../shared/print-json.js'
