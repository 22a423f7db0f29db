/**
 * GuardKit commits that changed the modelled functions, oldest first (docs/guardkit-logic.md §0.2, §0.3).
 * `as-run:<commit>` profiles hold every change landed at or before the commit.
 */
export interface GuardkitCommit {
  readonly sha: string
  readonly date: string
  readonly note: string
}

export const COMMITS: readonly GuardkitCommit[] = [
  {sha: '28534d78', date: '2026-02-15', note: 'pre-ACR: exact-only text matching, no 0/N dump, partial promises rejected (seed 003 ran here)'},
  {sha: '98ee6962', date: '2026-02-15', note: 'TASK-ACR-001..008 (seed 003)'},
  {sha: 'f86b1bf9', date: '2026-02-15', note: 'legacy pin (orchestrator files identical to 98ee6962; seed 000 ran here)'},
  {sha: '723e5f4e', date: '2026-02-15', note: 'TASK-FIX-PIPELINE-DATA-LOSS Fix 1-5 (seed 000); TASK-REV-E719 Fix 2/3; stall log text; top-level AC bullets'},
  {sha: 'de1ce9b8', date: '2026-02-16', note: 'seam-test soft gate'},
  {sha: 'c4d01fcf', date: '2026-02-16', note: 'first direct-mode synthetic report (no _synthetic, no promises)'},
  {sha: '351c53fa', date: '2026-02-16', note: 'FEAT-ABF: cumulative-diff test detection, tests_written always, parser output unioned'},
  {sha: '8a697b80', date: '2026-02-17', note: 'test detection from completion_promises[].test_file (seed 002 ran here or at 351c53fa)'},
  {sha: '5c2b5d82', date: '2026-02-17', note: 'TASK-REV-D7B2 R1-R5 (seed 002)'},
  {sha: 'ca7c161a', date: '2026-02-17', note: 'infra tiers, conditional approval'},
  {sha: '71f60a9e', date: '2026-02-17', note: 'subprocess pytest via sys.executable -m pytest'},
  {sha: '09da8a9a', date: '2026-02-17', note: 'known service client libs'},
  {sha: '51222879', date: '2026-02-18', note: 'everything before TASK-FIX-AE7E (seed 004 ran here)'},
  {sha: 'edb5fd18', date: '2026-02-18', note: 'TASK-FIX-AE7E (seed 004)'},
  {sha: '22c32d91', date: '2026-02-18', note: 'TASK-FIX-A7F1: psycopg2 not a known lib; ModuleNotFoundError checked first'},
  {sha: '7f15c9ff', date: '2026-02-18', note: 'TASK-FIX-70F3: test detection from prior player reports'},
  {sha: '4fe1a14b', date: '2026-02-18', note: 'TASK-FIX-4415: psycopg2-in-asyncpg-project feedback'},
  {sha: 'c39fb68a', date: '2026-02-19', note: 'Fix 5 "task file not found" warning'},
  {sha: 'c5a83a15', date: '2026-02-19', note: 'consumer-context soft gate (seed 001 ran here)'},
  {sha: '71a5fb57', date: '2026-02-19', note: 'TASK-FIX-D1A3/D1A4: shared synthetic report, direct-mode _synthetic + promises, AC-count guard (seed 001)'},
  {sha: 'b2fee34d', date: '2026-02-20', note: 'TASK-FIX-PV01: file-path validation'},
  {sha: 'b72e08bf', date: '2026-02-20', note: '"tests not required for {type} tasks" wording'},
  {sha: 'c3feae49', date: '2026-02-24', note: 'TASK-FIX-d999: partial CriterionStatus, sdk_api_error, custom ANTHROPIC_BASE_URL'},
  {sha: '5c1aea32', date: '2026-02-25', note: 'fixed pin: DMCP-001..004 (seed 001 completion)'},
]

export const LEGACY_COMMIT = 'f86b1bf9'
export const FIXED_COMMIT = '5c1aea32'
export const PRE_ACR_COMMIT = '28534d78'

export function commitIndex(sha: string): number {
  return COMMITS.findIndex((c) => sha.startsWith(c.sha) || c.sha.startsWith(sha))
}
