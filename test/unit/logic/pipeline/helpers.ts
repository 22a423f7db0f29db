import {flagsFrom, flagsOn, type FlagId, type LogicFlags} from '../../../../src/logic/changes.js'
import {builtinProfile} from '../../../../src/logic/profiles.js'
import {createVirtualWorktree, type WorktreeView} from '../../../../src/logic/worktree.js'

export const LEGACY: LogicFlags = builtinProfile('legacy')!.flags
export const FIXED: LogicFlags = builtinProfile('fixed')!.flags

export function asRun(sha: string): LogicFlags {
  return builtinProfile(`as-run:${sha}`)!.flags
}

/** A profile with some flags switched on or off. */
export function withFlags(base: LogicFlags, on: readonly FlagId[], off: readonly FlagId[] = []): LogicFlags {
  const set = new Set(flagsOn(base))
  for (const f of on) set.add(f)
  for (const f of off) set.delete(f)
  return flagsFrom(set)
}

export const ROOT = '/worktree/root'

export function worktree(files: Record<string, string | null> = {}): WorktreeView {
  return createVirtualWorktree({root: ROOT, files, missing: 'absent'})
}
