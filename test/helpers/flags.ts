import type {LogicFlags} from '../../src/logic/changes.js'
import {builtinProfile} from '../../src/logic/profiles.js'

function flagsOf(name: string): LogicFlags {
  const profile = builtinProfile(name)
  if (!profile) throw new Error(`no built-in profile ${name}`)
  return profile.flags
}

export const LEGACY = flagsOf('legacy')
export const FIXED = flagsOf('fixed')
export const PRE_ACR = flagsOf('pre-acr')
