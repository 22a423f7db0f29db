import type {LogicFlags} from '../../../../src/logic/changes.js'
import {collectingSink, type LogRecord} from '../../../../src/logic/log-sink.js'
import {builtinProfile} from '../../../../src/logic/profiles.js'
import {createVirtualWorktree, type WorktreeView} from '../../../../src/logic/worktree.js'

export function flagsOfProfile(name: string): LogicFlags {
  const profile = builtinProfile(name)
  if (!profile) throw new Error(`no profile ${name}`)
  return profile.flags
}

export const LEGACY = flagsOfProfile('legacy')
export const FIXED = flagsOfProfile('fixed')

/** The oracle harness's worktree root (docs/guardkit-logic.md §12). */
export const ROOT = '/worktree/root'

/** A worktree holding exactly these files (path → content, null: exists, content not recorded). */
export function worktree(files: Record<string, string | null> = {}, root = ROOT): WorktreeView {
  return createVirtualWorktree({root, files, missing: 'absent'})
}

export function sink(): ReturnType<typeof collectingSink> {
  return collectingSink()
}

/** `LEVEL:logger:message`, the captured-log format of the corpus logs. */
export function logLines(records: readonly LogRecord[]): string[] {
  return records.map((r) => `${r.level}:${r.logger}:${r.message}`)
}
