import fc from 'fast-check'

/**
 * What `record` and `analyze --redact` must not let through (docs/recording-format.md "Redaction"):
 * account and host names in home paths and shell prompts, e-mail addresses, API keys and tokens of
 * each documented shape. Each sample carries the text to inject and the strings that must not be left
 * in any byte after redaction (`gone`), written independently of src/shared/redact.ts.
 */
export interface Sensitive {
  readonly kind: string
  /** The text to put into a run (one line, no newline). */
  readonly text: string
  /** Substrings that must not appear anywhere after redaction. */
  readonly gone: readonly string[]
}

const lower = 'abcdefghijklmnopqrstuvwxyz'
const alnum = `${lower}ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789`
const chars = (alphabet: string, min: number, max: number) => fc.array(fc.constantFrom(...alphabet), {minLength: min, maxLength: max}).map((cs) => cs.join(''))
/** A random body with at least one letter and one digit (the shape of every real key). */
const keyBody = (alphabet: string, min: number, max: number) =>
  fc.tuple(chars(alphabet, min, max), fc.constantFrom(...'0123456789'), fc.constantFrom(...lower), fc.nat()).map(([s, d, l, at]) => {
    const i = at % (s.length + 1)
    return s.slice(0, i) + d + l + s.slice(i)
  })

/** Not a name the rules treat as nobody's or as common vocabulary, nor one of our placeholders. */
const NOT_NAMES = /^(?:root|shared|guest|public|default|linuxbrew|admin|runner|legacy|fixed|approved|feedback|cancelled|timeout|exact|direct|user\d*x*|u\d+x*|host\d*x*|h\d+x*|x+)$/i

/** Account names as macOS and Linux make them: `richardwoollcott`, `jsmith2`, `dev`. */
export const accountName = fc
  .tuple(chars(lower, 1, 1), chars(`${lower}0123456789`, 2, 15))
  .map(([a, b]) => a + b)
  .filter((n) => !NOT_NAMES.test(n))

/** Machine names: `Richards-MBP`, `mac`, `promaxgb10-41b1`. */
export const hostName = fc
  .tuple(chars(`${lower}ABCDEFGHIJKLMNOPQRSTUVWXYZ`, 1, 1), chars(`${alnum}-`, 2, 14))
  .map(([a, b]) => (a + b).replace(/-+$/, ''))
  .filter((h) => h.length >= 3 && !NOT_NAMES.test(h))

const projectDir = fc.constantFrom('Projects/appmilla_github/guardkit', 'src/fastapi', 'work/api-service', 'code')

/** `/Users/NAME/…` and `/home/NAME/…`, also inside a worktree path. */
export const homePath: fc.Arbitrary<Sensitive> = fc
  .tuple(fc.constantFrom('/Users/', '/home/'), accountName, projectDir, fc.boolean(), fc.constantFrom('tests/test_a.py', 'src/app/main.py', ''))
  .map(([root, name, project, worktree, rest]) => ({
    kind: 'home',
    text: `${root}${name}/${project}${worktree ? '/.guardkit/worktrees/FEAT-X1' : ''}/${rest}`,
    gone: [`${root}${name}/`],
  }))

/** zsh and bash prompts running AutoBuild. */
export const shellPrompt: fc.Arbitrary<Sensitive> = fc
  .tuple(accountName, hostName, fc.constantFrom('guardkit', 'fastapi', '~'), fc.boolean())
  .map(([user, host, dir, zsh]) => ({
    kind: 'prompt',
    text: zsh ? `${user}@${host} ${dir} % guardkit autobuild feature FEAT-X1 --max-turns 5` : `${user}@${host}:~/${dir}$ guardkit autobuild task TASK-X-001`,
    gone: [`${user}@${host}`],
  }))

export const emailAddress: fc.Arbitrary<Sensitive> = fc
  .tuple(accountName, chars(lower, 4, 10), fc.constantFrom('com', 'io', 'co.uk'))
  .map(([user, domain, tld]) => ({kind: 'email', text: `Author: ${user}@${domain}.${tld}`, gone: [`${user}@${domain}`]}))

export const apiKey: fc.Arbitrary<Sensitive> = fc
  .tuple(fc.constantFrom('sk-', 'sk-proj-', 'sk-ant-api03-'), keyBody(`${alnum}_-`, 24, 60), fc.constantFrom('OPENAI_API_KEY=', 'export ANTHROPIC_API_KEY=', 'key: ', ''))
  .map(([prefix, body, lead]) => ({kind: 'api-key', text: `${lead}${prefix}${body}`, gone: [body]}))

export const githubToken: fc.Arbitrary<Sensitive> = fc
  .tuple(fc.constantFrom('ghp_', 'gho_', 'ghs_'), keyBody(alnum, 34, 34))
  .map(([prefix, body]) => ({kind: 'github-token', text: `git remote set-url origin https://${prefix}${body}@github.com/x/y.git`, gone: [body]}))

export const awsKey: fc.Arbitrary<Sensitive> = keyBody('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 14, 14)
  .map((b) => b.toUpperCase())
  .map((body) => ({kind: 'aws-key', text: `aws_access_key_id = AKIA${body}`, gone: [`AKIA${body}`]}))

export const jwt: fc.Arbitrary<Sensitive> = fc
  .tuple(keyBody(`${alnum}_-`, 10, 30), keyBody(`${alnum}_-`, 10, 60), keyBody(`${alnum}_-`, 20, 43))
  .map(([h, p, s]) => ({kind: 'jwt', text: `token eyJ${h}.eyJ${p}.${s}`, gone: [`${h}.eyJ${p}.${s}`]}))

export const bearer: fc.Arbitrary<Sensitive> = keyBody(`${alnum}._-`, 20, 50).map((t) => ({kind: 'bearer', text: `Authorization: Bearer ${t}`, gone: [t]}))

export const connectionPassword: fc.Arbitrary<Sensitive> = fc
  .tuple(fc.constantFrom('postgresql', 'postgresql+asyncpg', 'mysql', 'redis', 'https'), chars(lower, 3, 10), keyBody(alnum, 3, 20))
  .map(([scheme, user, password]) => ({kind: 'password', text: `DATABASE_URL=${scheme}://${user}:${password}@localhost:5433/test`, gone: [`:${password}@`]}))

export const settingSecret: fc.Arbitrary<Sensitive> = fc
  .tuple(fc.constantFrom('GITHUB_TOKEN=', 'password: ', '"api_key": "', 'AWS_SECRET_ACCESS_KEY='), keyBody(alnum, 10, 40))
  .map(([key, value]) => ({kind: 'secret', text: `${key}${value}${key.endsWith('"') ? '"' : ''}`, gone: [value]}))

/** Any one of the above. */
export const sensitive: fc.Arbitrary<Sensitive> = fc.oneof(homePath, shellPrompt, emailAddress, apiKey, githubToken, awsKey, jwt, bearer, connectionPassword, settingSecret)

/**
 * The kinds redaction gained later (docs/recording-format.md "Redaction"), shaped as each
 * service documents its tokens; `gone` again written independently of src/shared/redact*.ts.
 */
const b64 = `${alnum}+/`
export const privateKeyBlock: fc.Arbitrary<Sensitive> = fc
  .tuple(fc.constantFrom('RSA PRIVATE KEY', 'PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'ENCRYPTED PRIVATE KEY'), fc.array(keyBody(b64, 40, 64), {minLength: 2, maxLength: 4}))
  .map(([label, lines]) => ({kind: 'private-key', text: `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----`, gone: lines}))
export const slackWebhook: fc.Arbitrary<Sensitive> = fc
  .tuple(chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 9, 11), chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 9, 11), keyBody(alnum, 22, 24))
  .map(([t, b, s]) => ({kind: 'webhook', text: `SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T${t}/B${b}/${s}`, gone: [s]}))
const prefixed = (kind: string, prefix: string, body: fc.Arbitrary<string>, lead = fc.constantFrom('', 'token ', 'export X=', '"auth": "')) =>
  fc.tuple(lead, body).map(([l, b]) => ({kind, text: `${l}${prefix}${b}${l.endsWith('"') ? '"' : ''}`, gone: [b]}))
export const npmToken = prefixed('npm', 'npm_', keyBody(alnum, 34, 34))
export const huggingFaceToken = prefixed('hugging-face', 'hf_', keyBody(alnum, 32, 36))
export const pypiToken = prefixed('pypi', 'pypi-AgEIcHlwaS5vcmc', keyBody(`${alnum}_-`, 50, 80))
export const gitlabToken = prefixed('gitlab', 'glpat-', keyBody(`${alnum}_-`, 20, 20))
export const stripeKey = fc.constantFrom('sk_live_', 'rk_test_', 'sk_test_').chain((p) => prefixed('stripe', p, keyBody(alnum, 24, 32)))
export const twilioKey = prefixed('twilio', 'SK', chars('0123456789abcdef', 32, 32))
export const sendgridKey = fc.tuple(keyBody(`${alnum}_-`, 22, 22), keyBody(`${alnum}_-`, 43, 43)).map(([a, b]) => ({kind: 'sendgrid', text: `SENDGRID_API_KEY=SG.${a}.${b}`, gone: [`${a}.${b}`]}))
export const azureKey = keyBody(b64, 86, 86).map((k) => ({kind: 'azure', text: `DefaultEndpointsProtocol=https;AccountName=acct1;AccountKey=${k}==;EndpointSuffix=core.windows.net`, gone: [k]}))
export const gcpKey = fc.oneof(
  keyBody(`${alnum}_-`, 35, 35).map((k) => ({kind: 'gcp', text: `GOOGLE_API_KEY=AIza${k}`, gone: [k]})),
  keyBody(`${alnum}_-`, 28, 28).map((k) => ({kind: 'gcp', text: `client_secret: GOCSPX-${k}`, gone: [k]})),
)
/** A value under a name that says it is a secret, in the forms settings are written in. */
export const namedSecret: fc.Arbitrary<Sensitive> = fc
  .tuple(
    fc.constantFrom('GCP_DB_PASS', 'DB_PASSWD', 'SMTP_PASSWORD', 'CLIENT_SECRET', 'SLACK_TOKEN', 'SIGNING_KEY', 'GOOGLE_CREDENTIALS', 'db_password', 'apiKey'),
    keyBody(`${alnum}!#%*`, 8, 24),
    fc.constantFrom('=', ': ', '="', '": "'),
  )
  .map(([name, value, sep]) => ({kind: 'named-secret', text: sep === '": "' ? `"${name}": "${value}"` : sep === '="' ? `${name}="${value}"` : `${name}${sep}${value}`, gone: [value]}))

/** Every kind. */
export const anySecret: fc.Arbitrary<Sensitive> = fc.oneof(
  sensitive, privateKeyBlock, slackWebhook, npmToken, huggingFaceToken, pypiToken, gitlabToken, stripeKey, twilioKey, sendgridKey, azureKey, gcpKey, namedSecret,
)
