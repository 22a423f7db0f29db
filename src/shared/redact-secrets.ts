/**
 * The shapes of secrets redaction replaces (docs/recording-format.md "Redaction"): tokens whose
 * prefix names them, private key blocks, webhooks, and any value set under a name that says it is
 * a secret. ASCII only; pure.
 */

import {freshLookbehind, SECRET_PLACEHOLDER, type RedactionKind} from './redact-rules.js'

export interface SecretRule {
  readonly kind: RedactionKind
  /** Named groups: `keep` (a public prefix, kept) and `secret` (replaced); with `notAfter`, it starts with freshLookbehind's test. */
  readonly re: RegExp
  /** The characters that may not stand right before a match (a word it would be inside); see `startsFresh`. */
  readonly notAfter?: RegExp
  /** Literal substrings one of which a text must hold for the rule to be tried (a cheap native search first). */
  readonly hints?: readonly string[]
  /** The same as a pattern, for hints that are words in any case (`PASSWORD`, `clientSecret`). */
  readonly hint?: RegExp
  readonly accept?: (secret: string, keep: string) => boolean
}

const hasDigit = (s: string) => /[0-9]/.test(s)
const hasLetter = (s: string) => /[A-Za-z]/.test(s)
const mixed = (s: string) => hasDigit(s) && hasLetter(s)
interface RuleOptions {
  readonly notAfter?: RegExp
  readonly hints?: readonly string[]
  readonly hint?: RegExp
  readonly accept?: SecretRule['accept']
  /**
   * The pattern scans a run of characters from where it starts (a setting's name, a URL's scheme, `eyJ` and the run
   * after it, which `eyJeyJ…` repeats): it starts with freshLookbehind's test of `notAfter`, so that it is not tried
   * again at every position of a long run, each try scanning to the run's end. Only these rules: on the others (a
   * literal prefix V8 finds fast, a bounded run) the test costs without saving (corpus, fixtures and seeds: 5.2 s
   * against 4.0 s with it on every rule).
   */
  readonly scansRun?: true
}
const rule = (kind: RedactionKind, keep: string, secret: string, options: RuleOptions = {}): SecretRule => ({
  kind,
  re: new RegExp(`${options.scansRun && options.notAfter !== undefined ? freshLookbehind(options.notAfter) : ''}(?<keep>${keep})(?<secret>${secret})`, 'g'),
  ...options,
})
const WORD = /[A-Za-z0-9_-]/
const IDENT = /[A-Za-z0-9_]/
const NAME_CHAR = /[A-Za-z0-9_.-]/

/**
 * Words a name ends with when its value is a secret: `GITHUB_TOKEN`, `db_password`, `GCP_DB_PASS`,
 * `clientSecret`, `api-key`, `AWS_SECRET_ACCESS_KEY`, `credentials`. The last word decides:
 * `KeyError`, `key_files`, `token_count`, `max_tokens` name something else.
 */
export const SECRET_WORDS: ReadonlySet<string> = new Set([
  'pass', 'passwd', 'password', 'passphrase', 'pwd', 'secret', 'secrets', 'token', 'key', 'credential', 'credentials',
  'apikey', 'accesskey', 'secretkey', 'privatekey', 'authtoken', 'accesstoken', 'refreshtoken', 'clientsecret', 'sas',
])

/** The words of a name: `AWS_SECRET_ACCESS_KEY` → aws secret access key; `clientSecret` → client secret. */
function wordsOf(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '')
}

/** Whether a setting's name says its value is a secret (PASS, PASSWD, PASSWORD, SECRET, TOKEN, KEY, CREDENTIAL, …). */
export function isSecretName(name: string): boolean {
  const last = wordsOf(name).at(-1)
  return last !== undefined && SECRET_WORDS.has(last)
}

/** Values that are not secrets whatever the name: templates, references, flags, counts, paths, masks. */
const NOT_A_VALUE = /^(?:true|false|yes|no|on|off|none|null|nil|undefined|required|optional|redacted|changeme|\*+|x+|-+|\.+|\d+(?:\.\d+)?)$/i
const TEMPLATE = /\$\{|\{\{|<[^>]*>|%\(|^\$[A-Za-z_]|^(?:\.{0,2}\/|~\/)/

/** A type where code declares a setting (`password: SecretStr`, `token: str`, `api_key: Optional`): not a value. */
const TYPE_NAME = /^(?:(?:[A-Z][a-z]+)+|str|string|bytes|int|integer|float|bool|boolean|dict|list|any|object|number|unknown)$/

/** Whether a value set under a secret name is a secret: 4+ characters, not a template, a flag, a count, a path or a type. */
export function isSecretValue(value: string): boolean {
  const v = value.trim()
  return v.length >= 4 && !NOT_A_VALUE.test(v) && !TEMPLATE.test(v) && !TYPE_NAME.test(v) && !SECRET_PLACEHOLDER.test(v) && !v.includes('REDACTED')
}

/** `NAME=value`, `name: value`, `"name": "value"`, `'name': 'value'` (the name group is `keep`'s identifier). */
const ASSIGN_NAME = String.raw`(?<name>[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)*)`
const ASSIGN_SEP = String.raw`\\?["']?[ \t]*[:=][ \t]*`
/**
 * What every name isSecretName accepts holds, in some case: its last word is one of SECRET_WORDS, each of which
 * holds one of these (test/unit/shared/redact.test.ts sets each word as a name). A text without any cannot hold a
 * secret setting, and the two assignment rules (tried at every letter of the text otherwise) are skipped.
 */
const SECRET_WORD_HINT = /pass|pwd|secret|token|key|credential|sas/i
const acceptAssignment = (secret: string, keep: string): boolean => {
  const name = /^[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)*/.exec(keep)?.[0] ?? ''
  return isSecretName(name) && isSecretValue(secret)
}

export const SECRET_RULES: readonly SecretRule[] = [
  rule('jwt', 'eyJ', String.raw`[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`, {notAfter: WORD, hints: ['eyJ'], scansRun: true}),
  // OpenAI / Anthropic style keys: `task-specific` is not one (preceded by a letter), nor `sk-status-json` (no digit)
  rule('api-key', 'sk-(?:proj-|ant-(?:[a-z]+\\d\\d-)?|live-|test-|svcacct-|admin-)?', '[A-Za-z0-9_-]{20,}', {notAfter: WORD, hints: ['sk-'], accept: mixed}),
  rule('api-key', 'AIza', '[0-9A-Za-z_-]{35}', {notAfter: WORD, hints: ['AIza']}),
  // Slack: bot/user/app tokens (xoxb-, xoxp-, xapp-, …), and incoming webhooks; Teams and Discord webhooks
  rule('api-key', '(?:xox[abposr]|xapp)-', '[A-Za-z0-9-]{10,}', {notAfter: WORD, hints: ['xox', 'xapp-']}),
  rule('webhook', String.raw`https://hooks\.slack\.com/(?:services|workflows|triggers)/`, '[A-Za-z0-9_/-]{16,}', {hints: ['hooks.slack.com']}),
  rule('webhook', String.raw`https://[A-Za-z0-9.-]*\.webhook\.office\.com/webhookb2/`, '[A-Za-z0-9@/_-]{16,}', {hints: ['webhook.office.com']}),
  rule('webhook', String.raw`https://discord(?:app)?\.com/api/webhooks/`, '[0-9]+/[A-Za-z0-9_-]{20,}', {hints: ['/api/webhooks/']}),
  rule('github-token', '(?:ghp|gho|ghu|ghs|ghr)_', '[A-Za-z0-9]{30,}', {notAfter: IDENT, hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']}),
  rule('github-token', 'github_pat_', '[A-Za-z0-9_]{40,}', {notAfter: IDENT, hints: ['github_pat_']}),
  // npm, Hugging Face, PyPI, GitLab, Stripe, SendGrid, Google OAuth, Twilio
  rule('api-key', 'npm_', '[A-Za-z0-9]{30,}', {notAfter: IDENT, hints: ['npm_']}),
  rule('api-key', 'hf_', '[A-Za-z0-9]{30,}', {notAfter: IDENT, hints: ['hf_']}),
  rule('api-key', 'pypi-', 'AgE[A-Za-z0-9_-]{30,}', {notAfter: WORD, hints: ['pypi-AgE']}),
  rule('api-key', 'gl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt|agent|wt)-', '[A-Za-z0-9_-]{20,}', {notAfter: WORD, hints: ['gl']}),
  rule('api-key', '(?:sk|rk|pk)_(?:live|test)_', '[A-Za-z0-9]{16,}', {notAfter: IDENT, hints: ['_live_', '_test_']}),
  rule('api-key', 'whsec_', '[A-Za-z0-9+/=]{24,}', {notAfter: IDENT, hints: ['whsec_']}),
  rule('api-key', 'SG\\.', String.raw`[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`, {notAfter: WORD, hints: ['SG.']}),
  rule('api-key', '(?:GOCSPX-|ya29\\.)', '[A-Za-z0-9_-]{20,}', {notAfter: WORD, hints: ['GOCSPX-', 'ya29.']}),
  rule('api-key', '(?:SK|AC)', '[0-9a-f]{32}(?![0-9A-Za-z])', {notAfter: IDENT, hints: ['SK', 'AC']}),
  // Azure: storage and Service Bus keys in connection strings, SAS signatures, Entra ID client secrets
  rule('api-key', '(?:AccountKey|SharedAccessKey|SharedSecret)=', '[A-Za-z0-9+/]{20,}={0,2}', {notAfter: /[A-Za-z0-9]/, hints: ['AccountKey=', 'SharedAccessKey=', 'SharedSecret=']}),
  rule('api-key', '[?&]sig=', '[A-Za-z0-9%+/=]{20,}', {hints: ['sig=']}),
  rule('api-key', '', String.raw`[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`, {notAfter: /[A-Za-z0-9_~.-]/, hints: ['Q~']}),
  rule('aws-key', '(?:AKIA|ASIA)', '[A-Z0-9]{16}(?![A-Z0-9])', {notAfter: /[A-Z0-9]/, hints: ['AKIA', 'ASIA']}),
  rule('bearer', '(?:[Bb]earer|BEARER)\\s+', '[A-Za-z0-9._~+/-]{16,}=*', {notAfter: IDENT, hints: ['earer', 'EARER'], accept: mixed}),
  // scheme://user:PASSWORD@host
  rule('password', String.raw`[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@'"<>\\]+:`, String.raw`[^\s@/'"<>\\]+(?=@)`, {notAfter: /[A-Za-z0-9+.-]/, hints: ['://'], scansRun: true}),
  // a quoted value set under a secret name: PASSWORD="two words", "api_key": "…", token: '…'
  rule('secret', `${ASSIGN_NAME}${ASSIGN_SEP}\\\\?(?<q>["'])`, String.raw`[^"'\\\r\n]{4,}(?=\\?\k<q>)`, {notAfter: NAME_CHAR, hint: SECRET_WORD_HINT, accept: acceptAssignment, scansRun: true}),
  // an unquoted one: GCP_DB_PASS=…, password: …, --token=…
  rule('secret', `${ASSIGN_NAME}${ASSIGN_SEP}`, String.raw`[^\s"'${'`'},;<>{}()\[\]\\]{4,}`, {notAfter: NAME_CHAR, hint: SECRET_WORD_HINT, accept: acceptAssignment, scansRun: true}),
]

/**
 * A private key block: PEM (`-----BEGIN RSA PRIVATE KEY-----`, `… EC …`, `… OPENSSH …`,
 * `-----BEGIN PRIVATE KEY-----`, `-----BEGIN ENCRYPTED PRIVATE KEY-----`) and PGP private key blocks,
 * as real lines or JSON-escaped in one (`\n`). The whole body is replaced (its line breaks, escapes
 * and header punctuation kept), up to the END line, or, for a block cut short, as far as it goes.
 */
export const PRIVATE_KEY_RE = /(?<keep>-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)(?<secret>(?:\\[nrt]|[A-Za-z0-9+/=:,. \t\r\n]|-(?!----END))*)/g

/** The characters of a key body that are key material (the rest — line breaks, escapes, header punctuation — is kept). */
export const KEY_MATERIAL = /[A-Za-z0-9+/=]/
