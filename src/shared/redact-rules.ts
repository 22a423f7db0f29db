/** The patterns of redaction (docs/recording-format.md "Redaction"), ASCII only. Pure. */

export type RedactionKind =
  | 'home' | 'user' | 'host' | 'email'
  | 'api-key' | 'github-token' | 'aws-key' | 'jwt' | 'bearer' | 'password' | 'secret' | 'word'

/** Account-name characters (macOS and POSIX names are ASCII). */
export const NAME = '[A-Za-z0-9._-]'
/**
 * Not preceded by a character of `cls`, or preceded by a JSON/YAML escape (`\n`, `\r`, `\t`): in a
 * JSON file the text after a newline escape starts a line as much as after a real newline.
 */
export const notAfter = (cls: string) => String.raw`(?:(?<!${cls})|(?<=\\[nrt]))`
/** Where an absolute path may start: not inside another path or word (`src/home/x` is not a home). */
const PATH_START = String.raw`(?:(?<=^|[^A-Za-z0-9._~/\\-]|file://)|(?<=\\[nrt]))`
export const HOME_RE = new RegExp(String.raw`${PATH_START}(/(?:Users|home)/|[A-Za-z]:(?:\\\\|\\|/)Users(?:\\\\|\\|/))(${NAME}+)`, 'g')
/** `user@host dir %` (zsh), `user@host:~/dir$` (bash), `[user@host dir]$` (RHEL). */
const PROMPT_END = String.raw`(?: |$|\\[nr])`
export const PROMPT_RE = new RegExp(
  String.raw`${notAfter('[A-Za-z0-9._%+@-]')}(${NAME}+)@(${NAME}+)(?=(?: [^\s%$#\]]+)? [%$#]${PROMPT_END}|:(?:~|/)[^\r\n]*?[$#]${PROMPT_END}| [^\s\]]+\][$#])`,
  'gm',
)
export const EMAIL_RE = new RegExp(String.raw`${notAfter('[A-Za-z0-9._%+@-]')}([A-Za-z0-9._%+-]+)@((?:[A-Za-z0-9-]+\.)+)([A-Za-z]{2,})(?![A-Za-z0-9-])`, 'g')
/** Addresses that are nobody's: service senders and the RFC 2606 test domains. */
export const PUBLIC_LOCAL = /^(?:git|noreply|no-reply|donotreply)$/
export const PUBLIC_DOMAIN = /(?:^|\.)(?:example\.(?:com|org|net)|[^.]+\.(?:example|test|invalid|localhost))$/
/** Host-name labels kept as they are (`Richards-MBP.local`: only the first label names the machine). */
export const GENERIC_LABELS = new Set(['local', 'lan', 'home', 'localdomain', 'internal', 'com', 'net', 'org', 'io', 'dev', 'co', 'ac'])
/** Folders under /Users or /home that are not a person. */
export const NOT_A_USER = new Set(['Shared', 'Guest', 'Public', 'Default', 'root', 'linuxbrew'])
/** Names too common to replace where they stand alone (they are still replaced in paths and prompts). */
export const COMMON_WORDS = new Set([
  'admin', 'administrator', 'builder', 'default', 'developer', 'docker', 'guardkit', 'jenkins', 'linux', 'localhost',
  'macbook', 'public', 'runner', 'shared', 'tester', 'ubuntu', 'vagrant', 'worktree', 'worktrees',
  // the report's own vocabulary (profiles, outcomes, decisions, fidelity), so a report keeps its verdicts
  'legacy', 'fixed', 'pre-acr', 'approve', 'approved', 'feedback', 'cancelled', 'timeout', 'unrecoverable_stall',
  'max_turns_exceeded', 'exact', 'approximate', 'insufficient', 'recorded', 'replayed', 'inferred', 'certain',
  'critical', 'medium', 'task-work', 'direct', 'undetermined',
  // words GuardKit's console output is parsed by
  'autobuild', 'feature', 'orchestration', 'orchestrator', 'player', 'coach', 'checkpoint', 'worktree', 'quality',
])
/** Bare names shorter than this are replaced only in paths, prompts and addresses. */
export const MIN_BARE = 6

export interface SecretRule {
  readonly kind: RedactionKind
  /** Group 1: kept (a public prefix); group 2: the secret. */
  readonly re: RegExp
  readonly accept?: (secret: string) => boolean
}

const hasDigit = (s: string) => /[0-9]/.test(s)
const hasLetter = (s: string) => /[A-Za-z]/.test(s)
const rule = (kind: RedactionKind, source: string, accept?: (s: string) => boolean, flags = 'g'): SecretRule => ({kind, re: new RegExp(source, flags), ...(accept === undefined ? {} : {accept})})
const mixed = (s: string) => hasDigit(s) && hasLetter(s)

export const SECRET_RULES: readonly SecretRule[] = [
  rule('jwt', String.raw`${notAfter('[A-Za-z0-9_-]')}(eyJ)([A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)`),
  // OpenAI / Anthropic style keys: `task-specific` is not one (preceded by a letter), nor `sk-status-json` (no digit)
  rule('api-key', String.raw`${notAfter('[A-Za-z0-9_-]')}(sk-(?:proj-|ant-(?:[a-z]+\d\d-)?|live-|test-|svcacct-|admin-)?)([A-Za-z0-9_-]{20,})`, mixed),
  rule('api-key', String.raw`${notAfter('[A-Za-z0-9_-]')}(AIza)([0-9A-Za-z_-]{35})`),
  rule('api-key', String.raw`${notAfter('[A-Za-z0-9_-]')}(xox[abprs]-)([A-Za-z0-9-]{10,})`),
  rule('github-token', String.raw`${notAfter('[A-Za-z0-9_]')}((?:ghp|gho|ghu|ghs|ghr)_)([A-Za-z0-9]{30,})`),
  rule('github-token', String.raw`${notAfter('[A-Za-z0-9_]')}(github_pat_)([A-Za-z0-9_]{40,})`),
  rule('aws-key', String.raw`${notAfter('[A-Z0-9]')}((?:AKIA|ASIA))([A-Z0-9]{16})(?![A-Z0-9])`),
  rule('bearer', String.raw`${notAfter('[A-Za-z0-9_]')}([Bb]earer\s+|BEARER\s+)([A-Za-z0-9._~+/-]{16,}=*)`, mixed),
  // scheme://user:PASSWORD@host
  rule('password', String.raw`${notAfter('[A-Za-z0-9+.-]')}([A-Za-z][A-Za-z0-9+.-]*://[^\s:/@'"<>\\]+:)([^\s@/'"<>\\]+)(?=@)`),
  // API_KEY=…, "password": "…", x-auth-token: … (a value with letters and digits, not a template)
  rule(
    'secret',
    String.raw`${notAfter('[A-Za-z0-9]')}((?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|secret(?:[_-]?key)?|access[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|token|password|passwd|pwd)\\?["']?\s*[:=]\s*\\?["']?)([^\s"'${'`'},;<>{}()$\\]{8,})`,
    mixed,
    'gi',
  ),
]

/** Already a placeholder of ours: redacting twice changes nothing. */
export const NAME_PLACEHOLDER = /^(?:(?:user|u|host|h)\d+x*|x+)$/
export const SECRET_PLACEHOLDER = /^(?:REDACTED\d+x*|R\d+x*|x+)$/

export function isPublicEmail(local: string, domain: string): boolean {
  return PUBLIC_LOCAL.test(local) || PUBLIC_DOMAIN.test(domain.toLowerCase())
}

/** `Richards-MBP.` → `Richards-MBP` (a name does not end with a dot: `/Users/rich...` is cut). */
export function trimName(name: string): string {
  return name.replace(/\.+$/, '')
}

export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')
}

