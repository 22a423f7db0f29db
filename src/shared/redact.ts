/**
 * Redaction for sharing a run (docs/recording-format.md "Redaction"): secrets (API keys, tokens,
 * JWTs, bearer headers, passwords in connection strings and `…_TOKEN=` assignments), e-mail
 * addresses, user and host names and home directories are replaced by placeholders of the **same
 * length**, the same placeholder for the same original everywhere. Same length keeps every
 * column, every code-point cut GuardKit made (`feedback[:80]`), every `/…/worktrees/…/` prefix
 * and every relative path, so replay reaches the same verdicts on a redacted copy; only a hash of
 * a text that held a redacted string (a legacy stall signature of such a feedback) can change,
 * which `record` checks.
 *
 * Pure: the text comes in, the text goes out. Patterns are ASCII only, so a file decoded as
 * latin1 (one char per byte) is redacted byte for byte, and invalid UTF-8 survives untouched.
 */

import {
  addressStart, COMMON_WORDS, EMAIL_RE, escapeRegex, freshMatches, GENERIC_LABELS, HOME_RE, isPublicEmail, MIN_BARE, NAME_PLACEHOLDER, NOT_A_USER,
  pathStart, PROMPT_RE, replaceFresh, SECRET_PLACEHOLDER, trimName, wordStart, type RedactionKind,
} from './redact-rules.js'
import {NameTable, padTo} from './redact-names.js'
import {isSecretName, isSecretValue, KEY_MATERIAL, PRIVATE_KEY_RE, SECRET_RULES, type SecretRule} from './redact-secrets.js'
import {escapeTailAt, startsFresh} from './redact-rules.js'

export type {RedactionKind}

/** A local part that is a token (redacted as one), not a person's name. */
const SECRET_SHAPED = /^(?:glpat|gldt|ghp|gho|ghs|ghu|ghr|npm|hf|sk|xox[a-z])[-_]/

/** One replacement: `[start, end)` in the text, the same in its redacted form (same length). */
export interface RedactionHit {
  readonly kind: RedactionKind
  readonly start: number
  readonly end: number
}

export interface RedactedText {
  readonly text: string
  readonly hits: readonly RedactionHit[]
}

/** Names known besides those found in the text (the recording machine's user, host and home). */
export interface RedactionIdentities {
  readonly users?: readonly string[]
  readonly hosts?: readonly string[]
  readonly homes?: readonly string[]
  /** Further words to redact wherever they stand as a token (`record --redact-also`). */
  readonly words?: readonly string[]
}

/**
 * A redaction in progress: learn the names a set of texts holds, then redact each text. The same
 * original always gets the same placeholder; numbering follows the order names are first seen, so
 * the same texts learned in the same order give the same output.
 */
export class Redactor {
  private readonly users = new NameTable('user')
  private readonly hosts = new NameTable('host')
  private readonly secrets = new Map<string, string>()
  private readonly words = new Set<string>()
  private readonly literalHomes: {path: string; name: string}[] = []
  private bare: RegExp | null | undefined

  /** The machine's names: numbered after the names the texts hold, so a recording does not depend on who made it. */
  private identities: RedactionIdentities | null

  constructor(identities: RedactionIdentities = {}) {
    this.identities = identities
    for (const word of identities.words ?? []) if (word.trim() !== '') this.words.add(word)
  }

  /** Finds the user, host and home names a text holds (call for every text before redacting any). */
  learn(text: string): this {
    this.bare = undefined
    // each pattern is tried only on a text holding what all its matches hold (a native search first)
    if (mayHoldHome(text)) {
      for (const m of freshMatches(HOME_RE, text, pathStart)) {
        const name = trimName(m[2]!)
        if (name === '' || NOT_A_USER.has(name)) continue
        const after = text.slice(m.index + m[1]!.length + name.length, m.index + m[1]!.length + name.length + 3)
        this.users.see(name, /^(?:\.\.|…|\xe2\x80\xa6)/.test(after))
      }
    }
    if (!text.includes('@')) return this
    for (const m of freshMatches(PROMPT_RE, text, addressStart)) {
      if (!NOT_A_USER.has(m[1]!)) this.users.see(m[1]!)
      this.seeHost(m[2]!)
    }
    for (const m of freshMatches(EMAIL_RE, text, addressStart)) {
      if (isPublicEmail(m[1]!, m[2]! + m[3]!) || SECRET_SHAPED.test(m[1]!)) continue
      this.users.see(m[1]!)
      this.seeHost(m[2]!)
    }
    return this
  }

  /** Every string of a JSON-like value (keys excluded), for `learn`. */
  learnValue(value: unknown): this {
    for (const s of collectStrings(value)) this.learn(s)
    return this
  }

  /** The redacted text and where it changed (same length: offsets hold in both). */
  redact(text: string): RedactedText {
    this.addIdentities()
    const hits: RedactionHit[] = []
    let out = text.indexOf('PRIVATE KEY') === -1 ? text : this.redactKeyBlocks(text, hits)
    for (const rule of SECRET_RULES) out = this.redactSecrets(out, rule, hits)
    if (out.includes('@')) out = replaceFresh(out, EMAIL_RE, addressStart, (m) => {
      const [whole, local, domain, tld] = m as unknown as [string, string, string, string]
      const offset = m.index
      // a token of the form `glpat-…@gitlab.com` is already replaced: its prefix stays
      if (isPublicEmail(local, domain + tld) || local.includes('REDACTED')) return whole
      const replaced = `${this.users.placeholder(local)}@${this.hostPlaceholder(domain)}${tld}`
      if (replaced !== whole) hits.push({kind: 'email', start: offset, end: offset + whole.length})
      return replaced
    })
    if (out.includes('@')) out = replaceFresh(out, PROMPT_RE, addressStart, (m) => {
      const [whole, user, host] = m as unknown as [string, string, string]
      const offset = m.index
      const replaced = `${NOT_A_USER.has(user) ? user : this.users.placeholder(user)}@${this.hostPlaceholder(host)}`
      if (replaced !== whole) hits.push({kind: 'user', start: offset, end: offset + whole.length})
      return replaced
    })
    if (mayHoldHome(out)) out = replaceFresh(out, HOME_RE, pathStart, (m) => {
      const [whole, prefix, raw] = m as unknown as [string, string, string]
      const offset = m.index
      const name = trimName(raw)
      if (NOT_A_USER.has(name) || name === '') return whole
      const replaced = prefix + this.users.placeholder(name) + raw.slice(name.length)
      if (replaced !== whole) hits.push({kind: 'home', start: offset + prefix.length, end: offset + prefix.length + name.length})
      return replaced
    })
    for (const home of this.literalHomes) {
      const before = out
      out = replaceAll(before, home.path, (offset) => {
        const next = before[offset + home.path.length]
        if (next !== undefined && /[A-Za-z0-9._-]/.test(next)) return null
        hits.push({kind: 'home', start: offset + home.path.length - home.name.length, end: offset + home.path.length})
        return home.path.slice(0, home.path.length - home.name.length) + this.users.placeholder(home.name)
      })
    }
    const bare = this.bareRegex()
    if (bare !== null) {
      out = replaceFresh(out, bare, wordStart, (m) => {
        const whole = m[0]
        const offset = m.index
        const replaced = this.words.has(whole) ? wordPlaceholder(whole) : this.users.has(whole) ? this.users.placeholder(whole) : this.hosts.placeholder(whole)
        if (replaced !== whole) hits.push({kind: this.words.has(whole) ? 'word' : this.users.has(whole) ? 'user' : 'host', start: offset, end: offset + whole.length})
        return replaced
      })
    }
    return {text: out, hits: hits.sort((a, b) => a.start - b.start)}
  }

  /** The redacted text only. */
  text(text: string): string {
    return this.redact(text).text
  }

  /**
   * A value stored under a name (a JSON member, a YAML key): under a name that says it is a secret
   * (`password`, `GITHUB_TOKEN`, `private_key`, …) a secret-shaped value is replaced whole; any
   * value is also redacted as text.
   */
  field(name: string, value: string): RedactedText {
    if (isSecretName(name) && isSecretValue(value) && !value.includes('\n') && !value.includes('-----BEGIN')) {
      return {text: this.secretPlaceholder(value), hits: [{kind: 'secret', start: 0, end: value.length}]}
    }
    return this.redact(value)
  }

  /** A copy of a JSON-like value with every string value redacted (object keys kept). */
  value<T>(value: T): T {
    return mapStrings(value, (s) => this.text(s)) as T
  }

  private addIdentities(): void {
    const ids = this.identities
    if (ids === null) return
    this.identities = null
    this.bare = undefined
    for (const home of ids.homes ?? []) this.learnHome(home)
    for (const user of ids.users ?? []) if (user !== '' && !NOT_A_USER.has(user)) this.users.see(user)
    for (const host of ids.hosts ?? []) if (host !== 'localhost') this.seeHost(host)
  }

  private learnHome(home: string): void {
    const path = home.replace(/[\\/]+$/, '')
    const m = /^(.*[\\/])([A-Za-z0-9._-]+)$/.exec(path)
    if (m === null || NOT_A_USER.has(m[2]!) || path.length < 3) return
    this.users.see(m[2]!)
    if (!/^(?:\/(?:Users|home)\/|[A-Za-z]:[\\/]+Users[\\/]+)[^\\/]+$/.test(path)) this.literalHomes.push({path, name: m[2]!})
  }

  private seeHost(host: string): void {
    for (const label of host.split('.')) if (label !== '' && !GENERIC_LABELS.has(label.toLowerCase())) this.hosts.see(label)
  }

  /** Each label of a host name on its own (generic suffixes kept), so `Mac` and `Mac.local` agree. */
  private hostPlaceholder(host: string): string {
    return host.split('.').map((l) => (l === '' || GENERIC_LABELS.has(l.toLowerCase()) ? l : this.hosts.placeholder(l))).join('.')
  }

  /**
   * One rule's matches replaced. A match the rule does not accept (`tests.injected:password:` is not
   * a secret setting) is skipped by one character, not by its length: the setting inside it
   * (`password: …`) is still found.
   */
  private redactSecrets(text: string, rule: SecretRule, hits: RedactionHit[]): string {
    if (rule.hints !== undefined && !rule.hints.some((h) => text.includes(h))) return text
    if (rule.hint !== undefined && !rule.hint.test(text)) return text
    const re = rule.re
    re.lastIndex = 0
    let out = ''
    let from = 0
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const {keep, secret} = m.groups as {keep: string; secret: string}
      // on an escape's letter only when the kept prefix covers the escape (the escape then stays as it was)
      const fresh = startsFresh(text, m.index, rule.notAfter) || (keep.length > 0 && keep.length >= escapeTailAt(text, m.index) && escapeTailAt(text, m.index) > 0)
      const rejected = secret.length === 0 || !fresh || SECRET_PLACEHOLDER.test(secret) || secret.includes('REDACTED')
      if (rejected || (rule.accept !== undefined && !rule.accept(secret, keep))) {
        re.lastIndex = m.index + 1
        continue
      }
      const start = m.index + keep.length
      hits.push({kind: rule.kind, start, end: start + secret.length})
      out += text.slice(from, start) + this.secretPlaceholder(secret)
      from = start + secret.length
      re.lastIndex = from
    }
    return from === 0 ? text : out + text.slice(from)
  }

  /**
   * Private key blocks: every character of key material in the body replaced, the line breaks (real
   * or escaped) and header punctuation kept, so the block keeps its shape and its length.
   */
  private redactKeyBlocks(text: string, hits: RedactionHit[]): string {
    return text.replace(PRIVATE_KEY_RE, (...args: unknown[]) => {
      const whole = args[0] as string
      const offset = args[args.length - 3] as number
      const {keep, secret} = args[args.length - 1] as {keep: string; secret: string}
      const material: number[] = []
      for (let i = 0; i < secret.length; i++) {
        // `\n` in a JSON-escaped block is a line break, not key material
        if (secret[i] === '\\') {
          i++
          continue
        }
        if (KEY_MATERIAL.test(secret[i]!)) material.push(i)
      }
      const body = material.map((i) => secret[i]).join('')
      if (body.length === 0 || SECRET_PLACEHOLDER.test(body) || body.startsWith('REDACTED')) return whole
      const placeholder = this.secretPlaceholder(body)
      const chars = [...secret]
      material.forEach((at, k) => (chars[at] = placeholder[k]!))
      hits.push({kind: 'private-key', start: offset + keep.length, end: offset + keep.length + secret.length})
      return keep + chars.join('')
    })
  }

  private secretPlaceholder(secret: string): string {
    let hit = this.secrets.get(secret)
    if (hit === undefined) {
      const n = this.secrets.size + 1
      // numbered, so two different secrets never become the same text (`R3xx` when `REDACTED3` does not fit)
      hit = padTo(`REDACTED${n}`.length <= secret.length ? `REDACTED${n}` : `R${n}`, secret.length)
      this.secrets.set(secret, hit)
    }
    return hit
  }

  private bareRegex(): RegExp | null {
    if (this.bare !== undefined) return this.bare
    const names = [...this.users.names(), ...this.hosts.names(), ...this.words]
      // no user, host or label name is longer than 255 characters (POSIX login names, DNS): a longer one is no name to
      // look for elsewhere, and one of 32,768 or more would make the pattern too large for V8 (it threw)
      .filter((n) => (this.words.has(n) || (n.length >= MIN_BARE && !COMMON_WORDS.has(n.toLowerCase()))) && !NAME_PLACEHOLDER.test(n) && n.length <= MAX_NAME)
      .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    this.bare = names.length === 0 ? null : new RegExp(`(?:${names.map(escapeRegex).join('|')})(?![A-Za-z0-9_])`, 'g')
    return this.bare
  }
}

const MAX_NAME = 255

/** What every match of HOME_RE holds: `/Users/`, `/home/`, or `Users` after a drive letter. */
function mayHoldHome(text: string): boolean {
  return text.includes('Users') || text.includes('/home/')
}

/** `learn` every string of `value`, then redact them all: what `analyze --redact` and the HTML report share. */
export function redactValue<T>(value: T, identities: RedactionIdentities = {}): T {
  return new Redactor(identities).learnValue(value).value(value)
}

/** `learn` a set of texts, then redact each (in the order given). */
export function redactTexts(texts: readonly string[], identities: RedactionIdentities = {}): RedactedText[] {
  const r = new Redactor(identities)
  for (const t of texts) r.learn(t)
  return texts.map((t) => r.redact(t))
}

/** Every string value below `value` (arrays, plain objects, Maps, Sets), depth first. */
export function collectStrings(value: unknown, out: string[] = []): string[] {
  mapStrings(value, (s) => {
    out.push(s)
    return s
  })
  return out
}

function mapStrings(value: unknown, f: (s: string) => string, seen = new Map<object, unknown>()): unknown {
  if (typeof value === 'string') return f(value)
  if (value === null || typeof value !== 'object') return value
  const done = seen.get(value)
  if (done !== undefined) return done
  if (Array.isArray(value)) {
    const out: unknown[] = []
    seen.set(value, out)
    for (const v of value) out.push(mapStrings(v, f, seen))
    return out
  }
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>()
    seen.set(value, out)
    for (const [k, v] of value) out.set(k, mapStrings(v, f, seen))
    return out
  }
  if (value instanceof Set) {
    const out = new Set<unknown>()
    seen.set(value, out)
    for (const v of value) out.add(mapStrings(v, f, seen))
    return out
  }
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return value
  const out: Record<string, unknown> = {}
  seen.set(value, out)
  for (const [k, v] of Object.entries(value)) out[k] = mapStrings(v, f, seen)
  return out
}

function wordPlaceholder(word: string): string {
  return 'x'.repeat(word.length)
}

function replaceAll(text: string, needle: string, f: (offset: number) => string | null): string {
  let out = ''
  let from = 0
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    const replaced = f(at)
    if (replaced === null) continue
    out += text.slice(from, at) + replaced
    from = at + needle.length
  }
  return out + text.slice(from)
}
