import {COMMITS, FLAG_IDS, LOGIC_CHANGES, type FlagId} from '../logic/changes.js'
import {asRunProfileNames, resolveProfile, type ProfileDefinition} from '../logic/profiles.js'
import type {ProfilesReport} from '../render/text/profiles.js'
import {loadUserProfiles} from './user-profiles.js'


export async function listProfiles(profilesFile?: string): Promise<ProfilesReport> {
  const user: ProfileDefinition[] = await loadUserProfiles(profilesFile)
  const names = ['legacy', 'fixed', 'pre-acr', ...asRunProfileNames(), ...user.map((p) => p.name)]
  const profiles = names.map((name) => {
    const result = resolveProfile(name, user)
    if (!result.ok) return {name, description: result.message, flags: [] as FlagId[], user: true}
    return {
      name: result.profile.name,
      description: result.profile.description,
      flags: FLAG_IDS.filter((id) => result.profile.flags[id]),
      user: user.some((p) => p.name === name),
    }
  })
  const changes = LOGIC_CHANGES.map((c) => ({...c, date: COMMITS.find((k) => k.sha === c.commit)?.date ?? '?'}))
  return {changes, profiles}
}
