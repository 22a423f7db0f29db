import type {LogicFlags} from '../changes.js'
import {pySplitWhitespace} from '../python/strings.js'

/** The environment facts dispatch depends on, recorded rather than read. */
export interface TestEnvironment {
  /** `autobuild.coach.test_execution` from the repository root's `.guardkit/config.yaml`; absent → `"sdk"`. */
  readonly coachTestExecution?: unknown
  /** `ANTHROPIC_BASE_URL` as the Coach saw it (null or absent: unset). */
  readonly anthropicBaseUrl?: string | null
  /** `GUARDKIT_COACH_TEST_MODEL` (null or absent: unset). */
  readonly coachTestModel?: string | null
  /** `sys.executable` of the GuardKit process, when recorded. */
  readonly sysExecutable?: string | null
}

/** How `run_independent_tests` would have run the command (docs/guardkit-logic.md §6.4). */
export interface TestDispatch {
  readonly mode: 'sdk' | 'subprocess'
  /** SDK path: any exception other than an API error or timeout falls back to the subprocess. */
  readonly fallbackOnSdkException: boolean
  /** Subprocess chosen because the task declares infrastructure (containers started first when Docker is up). */
  readonly infraPinned: boolean
  /** Legacy runs every command through the shell in the Coach's bare environment. */
  readonly legacyShell: boolean
}

/** `_is_custom_api_base()`: set, non-empty, and not containing `api.anthropic.com`. */
export function isCustomApiBase(baseUrl: string | null | undefined): boolean {
  return typeof baseUrl === 'string' && baseUrl !== '' && !baseUrl.includes('api.anthropic.com')
}

/**
 * The dispatch decision: `use_sdk = coach_test_execution == "sdk" and not requires_infrastructure
 * and not _is_custom_api_base()`. Only a list `requires_infrastructure` pins the subprocess (the
 * classifier and conditional approval use the raw value's truthiness instead).
 */
export function dispatchIndependentTests(requiresInfrastructure: unknown, env: TestEnvironment, flags: LogicFlags): TestDispatch {
  // sdkTests (D19): legacy has a single path, subprocess.run(cmd, shell=True).
  if (!flags.sdkTests) return {mode: 'subprocess', fallbackOnSdkException: false, infraPinned: false, legacyShell: true}
  const execution = env.coachTestExecution === undefined ? 'sdk' : env.coachTestExecution
  // infraPinnedSubprocess (D19): a declared infrastructure list forces the subprocess.
  const infraPinned = flags.infraPinnedSubprocess && Array.isArray(requiresInfrastructure) && requiresInfrastructure.length > 0
  // customBaseUrlSubprocess (D19): a non-Anthropic API base forces the subprocess.
  const customBase = flags.customBaseUrlSubprocess && isCustomApiBase(env.anthropicBaseUrl)
  const useSdk = execution === 'sdk' && !infraPinned && !customBase
  return {mode: useSdk ? 'sdk' : 'subprocess', fallbackOnSdkException: useSdk, infraPinned: !useSdk && infraPinned, legacyShell: false}
}

/** One line describing the dispatch: the mode, then what qualifies it in parentheses. */
export function describeDispatch(d: TestDispatch): string {
  const notes: string[] = []
  if (d.legacyShell) notes.push('shell=True', 'no env override')
  if (d.fallbackOnSdkException) notes.push('subprocess fallback on any SDK exception')
  if (d.infraPinned) notes.push('infra-pinned')
  return notes.length > 0 ? `${d.mode} (${notes.join(', ')})` : d.mode
}

/** The SDK prompt of `_run_tests_via_sdk` (exact; no system prompt). */
export function sdkTestPrompt(cmd: string): string {
  return `Run the following test command and report the output:\n\n\`\`\`bash\n${cmd}\n\`\`\`\n\nProvide the full test output.`
}

export interface SdkTestOptions {
  readonly allowed_tools: readonly string[]
  readonly permission_mode: string
  readonly max_turns: number
  readonly cwd: string
  /** The model id, `null` for the CLI default; `'haiku (hard-coded)'` between 5c2b5d82 and c3feae49. */
  readonly model: string | null
}

export function sdkTestOptions(worktreeRoot: string, env: TestEnvironment, flags: LogicFlags): SdkTestOptions {
  // coachTestModelEnv (D19): the model comes from GUARDKIT_COACH_TEST_MODEL (else the CLI default), no longer a hard-coded Haiku.
  const model = flags.coachTestModelEnv ? (env.coachTestModel || null) : 'haiku (hard-coded)'
  return {allowed_tools: ['Bash'], permission_mode: 'bypassPermissions', max_turns: 1, cwd: worktreeRoot, model}
}

/** The subprocess invocation: argv without a shell, or a shell command line. */
export type SubprocessInvocation = {readonly shell: false; readonly argv: readonly string[]} | {readonly shell: true; readonly command: string}

export function subprocessInvocation(cmd: string, sysExecutable: string, flags: LogicFlags): SubprocessInvocation {
  // sysExecutablePytest (D19): pytest runs under the interpreter GuardKit itself runs on.
  if (flags.sysExecutablePytest && cmd.startsWith('pytest')) return {shell: false, argv: [sysExecutable, '-m', 'pytest', ...pySplitWhitespace(cmd).slice(1)]}
  return {shell: true, command: cmd}
}
