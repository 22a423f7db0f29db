import {existsSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

/** fixtures/runs/ of this checkout. */
export const FIXTURES = fileURLToPath(new URL('../../fixtures/runs/', import.meta.url))

/** Every fixture: a directory of fixtures/runs/ holding an expected.yaml (docs/fixtures.md), sorted. */
export function fixtureDirs(): string[] {
  return readdirSync(FIXTURES, {withFileTypes: true})
    .filter((e) => e.isDirectory() && existsSync(join(FIXTURES, e.name, 'expected.yaml')))
    .map((e) => join(FIXTURES, e.name))
    .sort()
}
