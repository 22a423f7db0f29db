import type {LogicFlags} from '../changes.js'
import {pyStr} from '../python/builtins.js'
import {pyFindall, pyRegex} from '../python/regex.js'
import type {WorktreeView} from '../worktree.js'
import {dedupeKeepOrder} from './file-paths.js'
import type {PipelineEvent} from './trace.js'

/**
 * File-existence completion promises in their three historical forms (docs/guardkit-logic.md §4.5, §5.5, D12):
 * the autobuild state-recovery helper (legacy), the invoker's seed-exact helper of TASK-FIX-
 * PIPELINE-DATA-LOSS Fix 5 (723e5f4e..71a5fb57), and the shared `generate_file_existence_promises`
 * of `synthetic_report.py` (71a5fb57 on), which both callers delegate to in fixed.
 */
export type PromiseRecord = Record<string, unknown>

const FILE_REF = pyRegex(String.raw`[\w./\-]+\.\w{1,5}`)
const BACKTICK_FILE = pyRegex('`([^`]+\\.[a-zA-Z]+)`')
const BACKTICK_DIR = pyRegex('`([^`]+/)`')
const NO_EVIDENCE = 'No file-existence evidence for this criterion'

export function criterionId(index: number): string {
  return `AC-${String(index + 1).padStart(3, '0')}`
}

/** `for criterion in acceptance_criteria`: a str criteria value iterates by character, as in Python. */
export function criteriaTexts(ac: unknown): string[] {
  if (typeof ac === 'string') return Array.from(ac)
  return Array.isArray(ac) ? ac.map((c) => pyStr(c)) : []
}

function origin(file: string, created: readonly string[]): string {
  return `${file} (${created.includes(file) ? 'created' : 'modified'})`
}

/**
 * Shared `generate_file_existence_promises(files_created, files_modified, acceptance_criteria,
 * worktree_path=None)`: a list match is `complete` ("File-existence verified:", hyphen); without a
 * list match a path that exists on disk, or a backtick directory that is one, is `partial`
 * ("File existence verified:", space).
 */
export function generateFileExistencePromises(created: readonly string[], modified: readonly string[], ac: unknown, worktree: WorktreeView | null): PromiseRecord[] {
  const all = [...created, ...modified]
  return criteriaTexts(ac).map((text, i) => {
    const patterns = dedupeKeepOrder([...pyFindall(FILE_REF, text), ...pyFindall(BACKTICK_FILE, text)])
    const matched = dedupeKeepOrder(patterns.flatMap((p) => all.filter((f) => f.endsWith(p) || f.includes(p))))
    let status = 'incomplete'
    let evidence = NO_EVIDENCE
    if (matched.length > 0) {
      status = 'complete'
      evidence = 'File-existence verified: ' + matched.map((f) => origin(f, created)).join(', ')
    } else if (worktree) {
      const onDisk = patterns.filter((p) => worktree.exists(p))
      const dirs = onDisk.length > 0 ? [] : pyFindall(BACKTICK_DIR, text).filter((d) => worktree.isDir(d))
      const found = onDisk.length > 0 ? onDisk : dirs
      if (found.length > 0) {
        status = 'partial'
        evidence = 'File existence verified: ' + found.join(', ')
      }
    }
    return {criterion_id: criterionId(i), criterion_text: text, status, evidence, evidence_type: 'file_existence'}
  })
}

/** The invoker's `_generate_file_existence_promises` as TASK-FIX-PIPELINE-DATA-LOSS Fix 5 wrote it. */
export function generateFileExistencePromisesSeed(created: readonly string[], modified: readonly string[], ac: unknown, worktree: WorktreeView): PromiseRecord[] {
  const all = [...new Set([...created, ...modified])]
  return criteriaTexts(ac).map((text, i) => {
    const files = pyFindall(BACKTICK_FILE, text).filter((ref) => all.some((f) => f.includes(ref)) || worktree.exists(ref))
    const dirs = pyFindall(BACKTICK_DIR, text).filter((ref) => worktree.isDir(ref))
    const found = [...files, ...dirs]
    return found.length > 0
      ? {criterion_id: criterionId(i), status: 'partial', evidence: `File existence verified: ${found.join(', ')}`, evidence_type: 'file_existence'}
      : {criterion_id: criterionId(i), status: 'incomplete', evidence: 'No file references found or verified', evidence_type: 'file_existence'}
  })
}

/**
 * Legacy `autobuild._generate_file_existence_promises(work_state, ac)`: every (pattern, file) match
 * is listed, duplicates included. GuardKit iterates a `set` of files, so with several matches per
 * pattern their order is Python's hash order; the model lists them in first-seen order.
 */
export function generateFileExistencePromisesLegacy(created: readonly string[], modified: readonly string[], ac: unknown, events?: PipelineEvent[]): PromiseRecord[] {
  const detected = [...new Set([...created, ...modified])]
  return criteriaTexts(ac).map((text, i) => {
    const matched: string[] = []
    for (const p of pyFindall(FILE_REF, text)) {
      const hits = detected.filter((f) => f.endsWith(p) || f.includes(p))
      if (hits.length > 1) {
        events?.push({step: 'AutoBuildOrchestrator._generate_file_existence_promises', kind: 'approximate', field: 'completion_promises', values: hits,
          message: `several files match "${p}"; GuardKit lists them in set iteration order, which the records do not fix`})
      }
      matched.push(...hits)
    }
    return matched.length > 0
      ? {criterion_id: criterionId(i), criterion_text: text, status: 'complete', evidence: 'File-existence verified: ' + matched.map((f) => origin(f, created)).join(', ')}
      : {criterion_id: criterionId(i), criterion_text: text, status: 'incomplete', evidence: NO_EVIDENCE}
  })
}

/** The invoker's Fix 5 helper under a profile: seed-exact statuses, or the shared function with the worktree. */
export function invokerFileExistencePromises(created: readonly string[], modified: readonly string[], ac: unknown, worktree: WorktreeView, flags: LogicFlags): PromiseRecord[] {
  // sharedFileExistence (D12): from 71a5fb57 the invoker delegates to the shared function.
  return flags.sharedFileExistence ? generateFileExistencePromises(created, modified, ac, worktree) : generateFileExistencePromisesSeed(created, modified, ac, worktree)
}

/** `autobuild._generate_file_existence_promises` under a profile (state recovery, no worktree in fixed). */
export function autobuildFileExistencePromises(created: readonly string[], modified: readonly string[], ac: unknown, flags: LogicFlags, events?: PipelineEvent[]): PromiseRecord[] {
  // sharedFileExistence (D12, D16): fixed wraps the shared function without a worktree.
  return flags.sharedFileExistence ? generateFileExistencePromises(created, modified, ac, null) : generateFileExistencePromisesLegacy(created, modified, ac, events)
}
