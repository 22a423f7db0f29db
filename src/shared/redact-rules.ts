/** The patterns of redaction (docs/recording-format.md "Redaction"), ASCII only. Pure. */

export type RedactionKind =
  | 'home' | 'user' | 'host' | 'email'
  | 'api-key' | 'github-token' | 'aws-key' | 'jwt' | 'bearer' | 'password' | 'secret' | 'private-key' | 'webhook' | 'word'

/** Account-name characters (macOS and POSIX names are ASCII). */
export const NAME = '[A-Za-z0-9._-]'
/**
 * Whether a match may start at `at`: not right after a character of `notAfter` (it would be the
 * inside of a longer word) nor on the letter of an escape after a lone backslash
 * (`\nuser@x.io` is `\n` then `user@x.io`, not the address `nuser@x.io`, and replacing that letter
 * would break the escape and the JSON around it), except right after a whole escape sequence
 * (`\n`, `\t`, `\"`, `\u00e9`, `\x41`), after which text starts afresh. Checked in code after a
 * match rather than as a leading lookbehind, which the regex engine would try at every position.
 */
export function startsFresh(text: string, at: number, notAfter: RegExp | undefined): boolean {
  if (at === 0) return true
  const before = text[at - 1]!
  // after a lone backslash: not on the letter of an escape; after a literal one (`\GITHUB_TOKEN`, `C:\x`), freely
  if (before === '\\') return backslashesBefore(text, at) % 2 === 0 || !startsEscape(text, at)
  if (notAfter === undefined || !notAfter.test(before)) return true
  return endsEscape(text, at)
}

/** The characters from `at` on are what follows the backslash of an escape (`n`, `u00e9`, `x41`). */
function startsEscape(text: string, at: number): boolean {
  return escapeTailAt(text, at) > 0
}

/**
 * When `at` is the letter of an escape after a lone backslash (`\n`, `\u00e9`): how many characters of
 * the escape follow the backslash (1, 3, 5 or 9); else 0. A match may start there when it keeps that
 * many characters unchanged (`\npm_…` in decoded text: the prefix `npm_` is kept, the escape with it).
 */
export function escapeTailAt(text: string, at: number): number {
  if (at === 0 || text[at - 1] !== '\\' || backslashesBefore(text, at) % 2 === 0) return 0
  for (const [len, shape] of ESCAPE_SHAPES) if (shape.test(text.slice(at, at + len - 1))) return len - 1
  return 0
}

function backslashesBefore(text: string, at: number): number {
  let n = 0
  while (at - n - 1 >= 0 && text[at - n - 1] === '\\') n++
  return n
}

/** An escape sequence ends right before `at`, its backslash not itself escaped. */
function endsEscape(text: string, at: number): boolean {
  for (const [len, shape] of ESCAPE_SHAPES) {
    const start = at - len
    if (start >= 0 && text[start] === '\\' && shape.test(text.slice(start + 1, at)) && backslashesBefore(text, start) % 2 === 0) return true
  }
  return false
}

const ESCAPE_SHAPES: readonly (readonly [number, RegExp])[] = [
  [2, /^[nrtbf0aev"'/ ]$/],
  [4, /^x[0-9A-Fa-f]{2}$/],
  [6, /^u[0-9A-Fa-f]{4}$/],
  [10, /^U[0-9A-Fa-f]{8}$/],
]

/**
 * A lookbehind every fresh start (startsFresh with `chars`) satisfies, to begin a pattern with: the character before
 * is not one of `chars` (or there is none), or is a backslash, or an escape of ESCAPE_SHAPES ends there (backslashes'
 * parity aside: startsFresh decides). A pattern that starts with a run of such characters was otherwise tried at
 * every position of a long run, each try scanning to the run's end: quadratic in hostile input (40 KB of `a.b-c_d`
 * then `@`: 15 s, 160 KB: 208 s). With it, a position inside the run fails at once; freshMatches still applies the
 * exact test.
 */
export function freshLookbehind(chars: RegExp): string {
  return String.raw`(?:(?<!${chars.source})|(?<=\\|\\[nrtbf0aev"'/ ]|\\x[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}))`
}

/** The matches of a global regex that start fresh (see startsFresh); a rejected one is retried a character later. */
export function* freshMatches(re: RegExp, text: string, fresh: (text: string, at: number) => boolean): Generator<RegExpExecArray> {
  re.lastIndex = 0
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (!fresh(text, m.index)) {
      re.lastIndex = m.index + 1
      continue
    }
    const next = m.index + Math.max(m[0].length, 1)
    yield m
    re.lastIndex = next
  }
}

/** `text.replace(re, f)` over the fresh matches only. */
export function replaceFresh(text: string, re: RegExp, fresh: (text: string, at: number) => boolean, f: (m: RegExpExecArray) => string): string {
  let out = ''
  let from = 0
  for (const m of freshMatches(re, text, fresh)) {
    out += text.slice(from, m.index) + f(m)
    from = m.index + m[0].length
  }
  return from === 0 && out === '' ? text : out + text.slice(from)
}

const LOCAL_CHAR = /[A-Za-z0-9._%+@-]/
/** Where an e-mail address or a prompt's `user@host` may start. */
export const addressStart = (text: string, at: number): boolean => startsFresh(text, at, LOCAL_CHAR)
const PATH_CHAR = /[A-Za-z0-9._~/\\-]/
/** Where an absolute path may start: not inside another path or word (`src/home/x` is not a home); `file:///Users/x` is one. */
export const pathStart = (text: string, at: number): boolean =>
  startsFresh(text, at, PATH_CHAR) || (at >= 7 && text.slice(at - 7, at) === 'file://') ||
  // `\/Users/x` (an escaped slash): the slash is the kept prefix's, only the name after it is replaced
  (text[at] === '/' && escapeTailAt(text, at) === 1)
const WORD_CHAR = /[A-Za-z0-9_]/
/** Where a bare name may start: not inside a word. */
export const wordStart = (text: string, at: number): boolean => startsFresh(text, at, WORD_CHAR)

export const HOME_RE = new RegExp(String.raw`(/(?:Users|home)/|[A-Za-z]:(?:\\\\|\\|/)Users(?:\\\\|\\|/))(${NAME}+)`, 'g')
/**
 * `user@host dir %` (zsh), `user@host:~/dir$` (bash), `[user@host dir]$` (RHEL). bash's directory is looked for up to
 * PATH_MAX (4096) characters: unbounded, each `user@host:/` of a line with no `$ ` after it scanned to the line's end.
 */
const PROMPT_END = String.raw`(?: |$|\\[nr])`
export const PROMPT_RE = new RegExp(
  String.raw`${freshLookbehind(LOCAL_CHAR)}(${NAME}+)@(${NAME}+)(?=(?: [^\s%$#\]]+)? [%$#]${PROMPT_END}|:(?:~|/)[^\r\n]{0,4096}?[$#]${PROMPT_END}| [^\s\]]+\][$#])`,
  'gm',
)
export const EMAIL_RE = new RegExp(String.raw`${freshLookbehind(LOCAL_CHAR)}([A-Za-z0-9._%+-]+)@((?:[A-Za-z0-9-]+\.)+)([A-Za-z]{2,})(?![A-Za-z0-9-])`, 'g')
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

