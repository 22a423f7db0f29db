/** Whether the tests run in CI, where a missing tool (chromium, tmux, xmllint) is a failure, not a skip. */
export function inCi(): boolean {
  const ci = process.env['CI']
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0'
}
