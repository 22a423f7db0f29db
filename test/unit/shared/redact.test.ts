import {describe, expect, it} from 'vitest'
import {collectStrings, Redactor, redactTexts, redactValue} from '../../../src/shared/redact.js'
import {SECRET_WORDS} from '../../../src/shared/redact-secrets.js'

/**
 * src/shared/redact.ts (pure; docs/recording-format.md "Redaction"): each kind of secret and name,
 * same-length placeholders, one placeholder per original across texts, idempotence, and the
 * look-alikes real GuardKit logs hold that must stay (`task-specific`, `sk-status-json`,
 * `max_tokens=4096`, `test@example.com`).
 */
function redactOne(text: string): string {
  return redactTexts([text])[0]!.text
}

describe('redaction catches each kind of secret (table)', () => {
  it.each([
    {kind: 'OpenAI key', text: 'OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', secret: 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', keep: 'sk-proj-'},
    {kind: 'Anthropic key', text: 'key sk-ant-api03-AAAAbbbbCCCC1111ddddEEEE2222ffff in the env', secret: 'AAAAbbbbCCCC1111ddddEEEE2222ffff', keep: 'sk-ant-api03-'},
    {kind: 'classic sk- key', text: '"sk-abcdefghij0123456789ABCDEFGHIJ"', secret: 'abcdefghij0123456789ABCDEFGHIJ', keep: '"sk-'},
    {kind: 'GitHub token', text: 'push with ghp_0123456789abcdefghijABCDEFGHIJklmnop', secret: '0123456789abcdefghijABCDEFGHIJklmnop', keep: 'ghp_'},
    {kind: 'GitHub fine-grained token', text: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH', secret: '11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH', keep: 'github_pat_'},
    {kind: 'AWS access key id', text: 'aws_access_key_id=AKIAIOSFODNN7EXAMPLE', secret: 'IOSFODNN7EXAMPLE', keep: 'AKIA'},
    {kind: 'JWT', text: 'cookie eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U;', secret: 'hbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', keep: 'eyJ'},
    {kind: 'bearer header', text: 'Authorization: Bearer 4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c', secret: '4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c', keep: 'Bearer '},
    {kind: 'connection string password', text: 'Set DATABASE_URL=postgresql://postgres:test@localhost:5433/test', secret: ':test@', keep: 'postgresql://postgres:'},
    {kind: 'asyncpg connection string', text: 'postgresql+asyncpg://app:s3cretPassw0rd@db:5432/app', secret: 's3cretPassw0rd', keep: 'postgresql+asyncpg://app:'},
    {kind: 'KEY=value secret', text: 'GITHUB_TOKEN=abc123def456ghi789', secret: 'abc123def456ghi789', keep: 'GITHUB_TOKEN='},
    {kind: 'JSON password', text: '{"password": "hunter22hunter"}', secret: 'hunter22hunter', keep: '{"password": "'},
    {kind: 'AWS secret access key', text: 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', secret: 'wJalrXUtnFEMI', keep: 'AWS_SECRET_ACCESS_KEY='},
    {kind: 'e-mail address', text: 'Author: Richard <richard.w@appmilla.com>', secret: 'richard.w@appmilla', keep: '.com>'},
    // the later kinds, each in the shape its service documents
    {kind: 'npm token', text: '//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', secret: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', keep: 'npm_'},
    {kind: 'Hugging Face token', text: 'HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567', secret: 'AbCdEfGhIjKlMnOpQrStUvWxYz01234567', keep: 'hf_'},
    {kind: 'PyPI token', text: 'password = pypi-AgEIcHlwaS5vcmcCJDEyMzQ1Njc4LTkwYWItY2RlZi0xMjM0LTU2Nzg5MGFiY2RlZgACJXsicGVybWlzc2lvbnMiOiAidXNlciJ9', secret: 'AgEIcHlwaS5vcmcCJDEyMzQ1Njc4LTkwYWItY2RlZi0xMjM0LTU2Nzg5MGFiY2RlZgAC', keep: 'pypi-'},
    {kind: 'GitLab token', text: 'git clone https://oauth2:glpat-x1Y2z3A4b5C6d7E8f9G0@gitlab.com/g/p.git', secret: 'x1Y2z3A4b5C6d7E8f9G0', keep: 'glpat-'},
    {kind: 'Stripe key', text: 'stripe.api_key = "sk_live_51H8xYzABCdefGHIjklMNOpqr"', secret: '51H8xYzABCdefGHIjklMNOpqr', keep: 'sk_live_'},
    {kind: 'Twilio API key', text: 'TWILIO_API_KEY_SID=SK2b4d6f8a0c2e4a6c8e0b2d4f6a8c0e2b', secret: '2b4d6f8a0c2e4a6c8e0b2d4f6a8c0e2b', keep: '=SK'},
    {kind: 'SendGrid key', text: 'Authorization: SG.aBcDeFgHiJkLmNoPqRsTuV.wXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01', secret: 'aBcDeFgHiJkLmNoPqRsTuV.wXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01', keep: 'SG.'},
    {kind: 'Slack webhook', text: 'curl -X POST https://hooks.slack.com/services/T0ABC1234/B0DEF5678/aBcDeFgHiJkLmNoPqRsTuVwX -d @msg.json', secret: 'T0ABC1234/B0DEF5678/aBcDeFgHiJkLmNoPqRsTuVwX', keep: 'https://hooks.slack.com/services/'},
    {kind: 'Azure storage key', text: 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6MDEyMzQ1Njc4OQ==;EndpointSuffix=core.windows.net', secret: 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi', keep: ';EndpointSuffix'},
    {kind: 'Azure SAS signature', text: 'https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig=AbCdEf0123456789%2BghIjKlMnOp%3D', secret: 'AbCdEf0123456789%2BghIjKlMnOp%3D', keep: '&sig='},
    {kind: 'Google OAuth client secret', text: '"client_secret": "GOCSPX-AbCdEfGhIjKlMnOpQrStUvWxYz12"', secret: 'AbCdEfGhIjKlMnOpQrStUvWxYz12', keep: 'GOCSPX-'},
    {kind: 'a value whose name says PASS', text: 'GCP_DB_PASS=hunter2hunter', secret: 'hunter2hunter', keep: 'GCP_DB_PASS='},
    {kind: 'a letters-only password', text: 'export SMTP_PASSWORD=correcthorsebattery', secret: 'correcthorsebattery', keep: 'SMTP_PASSWORD='},
    {kind: 'a quoted value with spaces', text: "db_passwd: 'two words here'", secret: 'two words here', keep: "db_passwd: '"},
    {kind: 'a credential in a YAML line', text: '  google_credentials: eyJhbGciOiJub25lIn0-not-a-jwt', secret: 'eyJhbGciOiJub25lIn0-not-a-jwt', keep: 'google_credentials: '},
    {kind: 'a camelCase secret name', text: 'clientSecret=Xy9zAb8cDe7f', secret: 'Xy9zAb8cDe7f', keep: 'clientSecret='},
  ])('$kind', ({text, secret, keep}) => {
    const out = redactOne(text)
    expect(out).not.toContain(secret)
    expect(out).toContain(keep)
    expect(out.length).toBe(text.length)
    expect(redactOne(out)).toBe(out)
  })
})

describe('names and home directories', () => {
  const log = [
    'richardwoollcott@Richards-MBP fastapi % GUARDKIT_LOG_LEVEL=DEBUG guardkit autobuild feature FEAT-BA28 --max-turns 30',
    'INFO:guardkit.worktrees:Worktree: /Users/richardwoollcott/Projects/appmilla_github/guardkit/.guardkit/worktrees/FEAT-BA28',
    '  ⚠ Feedback: - Task-work results not found at /Users/richardwooll...',
    'dev@mac guardkit % ',
    'pytest /home/dev/src/fastapi/.guardkit/worktrees/FEAT-BA28/tests/users/test_users.py',
    'owner richardwoollcott on Richards-MBP',
  ].join('\n')

  it('replaces user, host and home by same-length placeholders, the same everywhere', () => {
    const out = redactOne(log)
    expect(out.length).toBe(log.length)
    expect(out.split('\n').map((l) => l.length)).toEqual(log.split('\n').map((l) => l.length))
    for (const gone of ['richardwoollcott', 'Richards-MBP', 'dev@mac', '/home/dev/', 'richardwooll']) expect(out).not.toContain(gone)
    expect(out).toContain('user1xxxxxxxxxxx@host1xxxxxxx fastapi %')
    expect(out).toContain('/Users/user1xxxxxxxxxxx/Projects/appmilla_github/guardkit/.guardkit/worktrees/FEAT-BA28')
    // the name GuardKit cut at 80 code points keeps being the start of the full one
    expect(out).toContain('not found at /Users/user1xxxxxxx...')
    expect(out).toContain('u2x@h2x guardkit %')
    expect(out).toContain('/home/u2x/src/fastapi')
    expect(out).toContain('owner user1xxxxxxxxxxx on host1xxxxxxx')
  })

  it('keeps paths absolute and their worktree shape (the fixed /WORKTREE/ rule still applies)', () => {
    const out = redactOne('/Users/alice/x/.guardkit/worktrees/FEAT-1/tests/test_a.py::test_b FAILED')
    expect(out).toBe('/Users/user1/x/.guardkit/worktrees/FEAT-1/tests/test_a.py::test_b FAILED')
  })

  it('finds home paths after JSON and YAML escapes, and in Windows and file:// form', () => {
    expect(redactOne('"test_output": "Error:\\n/Users/alice/src/t.py:3: KeyError"')).toBe('"test_output": "Error:\\n/Users/user1/src/t.py:3: KeyError"')
    expect(redactOne('C:\\\\Users\\\\bobsmith\\\\proj and C:\\Users\\bobsmith\\proj')).toBe('C:\\\\Users\\\\user1xxx\\\\proj and C:\\Users\\user1xxx\\proj')
    expect(redactOne('open file:///home/carol/report.html')).toBe('open file:///home/user1/report.html')
  })

  it('leaves what is not a person: /Users/Shared, root, relative src/home/, short names outside their context', () => {
    expect(redactOne('/Users/Shared/cache /root/.cache src/home/views.py')).toBe('/Users/Shared/cache /root/.cache src/home/views.py')
    // "dev" is a user here, but alone it is a common word: only its home and prompt are replaced
    expect(redactOne('/Users/dev/x and the dev server')).toBe('/Users/u1x/x and the dev server')
  })

  it('adds the machine\'s own user, host and home, numbered after the run\'s names', () => {
    const r = new Redactor({users: ['jsmith42'], hosts: ['build-box-7'], homes: ['/srv/people/jsmith42']})
    const text = 'alice@mac x % y\n/srv/people/jsmith42/run.log on build-box-7 by jsmith42'
    r.learn(text)
    expect(r.text(text)).toBe('user1@h1x x % y\n/srv/people/user2xxx/run.log on host2xxxxxx by user2xxx')
  })

  it('--redact-also words are replaced wherever they stand alone', () => {
    const [out] = redactTexts(['- Branch: RichWoollcott/git-workflow'], {words: ['RichWoollcott']})
    expect(out!.text).toBe('- Branch: xxxxxxxxxxxxx/git-workflow')
  })
})

describe('look-alikes that stay', () => {
  it.each([
    'No task-specific tests created and no task-specific tests found via independent run',
    'TASK-TSJ-001-implement-task-status-json-producer sk-status-json-producer',
    'max_tokens=4096 input_tokens: 123456 token: str password: SecretStr',
    'assert user.email == "test@example.com" and admin@example.org and noreply@anthropic.com',
    'git clone git@github.com:appmilla/guardkit.git',
    'Bearer authentication is required for users',
    'checkpoint 3f9a2b1c for turn 2, signature 82511af6',
    'export API_KEY=${ANTHROPIC_API_KEY}',
    // names that end in something else, values that are not secrets
    "KeyError: 'version' and key_files: src/a.py and token_count: 12 and max_tokens=4096",
    'password: required, token: none, api_key: Optional, secret: ***, PASSWORD_FILE=/run/secrets/db',
    'def login(password: str, token: SecretStr) -> None',
  ])('%s', (text) => {
    expect(redactOne(text)).toBe(text)
  })
})

describe('private key blocks', () => {
  const body = ['MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7', 'VJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGe', 'q2pEkcq0rP3GhR+Aw==']
  it('replaces the whole body, as lines and JSON-escaped in one, keeping its shape', () => {
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body.join('\n')}\n-----END RSA PRIVATE KEY-----`
    for (const text of [pem, JSON.stringify({private_key: pem}), `INFO:x:key ${JSON.stringify(pem)}`]) {
      const out = redactOne(text)
      for (const line of body) expect(out).not.toContain(line.slice(0, 12))
      expect(out).toContain('-----BEGIN RSA PRIVATE KEY-----')
      expect(out).toContain('-----END RSA PRIVATE KEY-----')
      expect(out.length).toBe(text.length)
      expect(redactOne(out)).toBe(out)
    }
    // the JSON form still parses, to a block of the same lines
    const json = redactOne(JSON.stringify({private_key: pem}))
    expect((JSON.parse(json) as {private_key: string}).private_key.split('\n').map((l) => l.length)).toEqual(pem.split('\n').map((l) => l.length))
  })

  it('a block cut short (a log line limit) is replaced as far as it goes', () => {
    const out = redactOne(`-----BEGIN OPENSSH PRIVATE KEY-----\n${body[0]}`)
    expect(out).not.toContain(body[0]!.slice(0, 12))
  })
})

describe('after an escape', () => {
  // an address or a prompt right after a JSON escape once swallowed the escape's letter (`\n` → `\u…`), and the file no longer parsed
  const cases: readonly (readonly [string, string])[] = [
    ['jane.doe@corp-mail.io', 'jane.doe'],
    ['alice@laptop7 ~ % guardkit autobuild x', 'alice@laptop7'],
    ['/Users/alice/x', '/Users/alice'],
    ['ghp_0123456789abcdefghijABCDEFGHIJklmnop', '0123456789abcdef'],
    ['GCP_DB_PASS=hunter2hunter', 'hunter2hunter'],
  ]
  it.each(['\\n', '\\t', '\\u00e9', '\\"', '\\\\', '\\r\\n'])('right after %s, the escape stays, the secret goes, the JSON still parses', (escape) => {
    for (const [secret, gone] of cases) {
      const text = `{"a": "x${escape}${secret}"}`
      const out = redactOne(text)
      expect(out.startsWith(`{"a": "x${escape}`), out).toBe(true)
      expect(out).not.toContain(gone)
      expect(() => JSON.parse(out)).not.toThrow()
    }
  })
})

describe('a setting named by any secret word', () => {
  // the assignment rules run only on texts holding a hint of a secret word (redact-secrets.ts): every word must be one
  it('has its value redacted, each word as a name\'s last word, in the three spellings code uses', () => {
    for (const word of SECRET_WORDS) {
      for (const name of [`APP_${word.toUpperCase()}`, `app_${word}`, `app${word[0]!.toUpperCase()}${word.slice(1)}`]) {
        const [out] = redactTexts([`export ${name}=Zq7vWm2pLx9k`])
        expect(out!.text, name).not.toContain('Zq7vWm2pLx9k')
      }
    }
  })
})

describe('hostile input (logs come from machines that may be compromised)', () => {
  // Each shape made every position of a long run scan to the run's end (quadratic: 160 KB of the first took 208 s).
  // At 200 KB each is linear now (milliseconds; the prompt shape, bounded by PATH_MAX, about a second), far inside
  // the test's timeout, which the quadratic forms exceed many times over.
  const N = 200_000
  const shapes: [string, string][] = [
    ['an e-mail local part that never ends', `${'a.b-c_d'.repeat(N / 7)}@`],
    ['a name before an @ that is not fresh', `${'x'.repeat(N)}@example.io`],
    ['a prompt user@host:/ again and again with no $', ' a@b:/'.repeat(N / 6)],
    ['a setting name that never reaches its =', 'token_'.repeat(N / 6)],
    ['a URL scheme that never reaches ://', `a://${'b'.repeat(N)}:`],
    ['a JWT prefix repeated', 'eyJ'.repeat(N / 3)],
  ]
  it.each(shapes)('redacts %s in linear time', (_, text) => {
    const [out] = redactTexts([`${text} user=alice@corp.io`])
    expect(out!.text).not.toContain('alice@corp.io')
  })

  it('does not throw on a home folder name too long to be anyone\'s, and still replaces it where it stands', () => {
    const name = 'a'.repeat(40_000)
    const [out] = redactTexts([`/Users/${name}/x and /home/bob/y`])
    expect(out!.text).not.toContain(name)
    expect(out!.text).not.toContain('/home/bob/')
  })
})

describe('one redaction over many texts', () => {
  it('gives the same placeholder for the same original in every text, in the order first seen', () => {
    const [a, b] = redactTexts(['/Users/zoe/x and /Users/amir/y', 'amir@laptop1 ~ % then /Users/zoe/z'])
    expect(a!.text).toBe('/Users/u1x/x and /Users/u2xx/y')
    expect(b!.text).toBe('u2xx@host1xx ~ % then /Users/u1x/z')
  })

  it('reports each replacement with its kind and place (same offsets in both texts)', () => {
    const text = 'x /Users/alice/y sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z'
    const [{hits, text: out}] = redactTexts([text]) as [{hits: {kind: string; start: number; end: number}[]; text: string}]
    expect(hits.map((h) => h.kind)).toEqual(['home', 'api-key'])
    for (const h of hits) expect(out.slice(h.start, h.end)).not.toBe(text.slice(h.start, h.end))
  })

  it('is idempotent, also for a new Redactor reading the redacted texts', () => {
    const texts = ['alice@Alices-MBP.local guardkit % run', 'mail alice@acme.io /home/alice/.ssh sk-abcdefghij0123456789ABCDEFGHIJ postgres://u:pw1@h/db']
    const once = redactTexts(texts).map((r) => r.text)
    expect(redactTexts(once).map((r) => r.text)).toEqual(once)
    expect(once.join('\n')).not.toMatch(/alice|Alices-MBP|acme|pw1|abcdefghij0123/)
  })
})

describe('values (analyze --redact)', () => {
  it('redacts every string of a value, keeps keys, numbers, shared references and the shape', () => {
    const shared = {file: '/Users/alice/run.log'}
    const value = {run: {path: '/Users/alice/run.log'}, evidence: [shared, shared], replays: {legacy: {outcome: 'approved', signature: '82511af6', turns: 3}}}
    const out = redactValue(value)
    expect(out).toEqual({run: {path: '/Users/user1/run.log'}, evidence: [{file: '/Users/user1/run.log'}, {file: '/Users/user1/run.log'}], replays: {legacy: {outcome: 'approved', signature: '82511af6', turns: 3}}})
    expect(out.evidence[0]).toBe(out.evidence[1])
    // a shared object is one value: its strings are met once
    expect(collectStrings(value)).toHaveLength(4)
    expect(value.run.path).toBe('/Users/alice/run.log')
  })
})
