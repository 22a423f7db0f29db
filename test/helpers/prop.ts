import * as fc from 'fast-check'
import {test as vitestTest} from 'vitest'

/**
 * `test.prop(arbitraries, parameters)(name, body, timeout)`: a property as one vitest test (docs/properties.md).
 * The seed is in the test's name (`… (with seed=N)`), as the seed policy wants (test/helpers/arbitraries/config.ts):
 * the one the parameters give, else fast-check's global one, else a fresh one. fast-check shrinks and prints a
 * failure's seed and path itself.
 *
 * It replaces @fast-check/vitest, whose `test` walks every chain of vitest's test modifiers when imported: ~3 s of
 * CPU in each vitest worker, once per tier. Unlike it, vitest's beforeEach/afterEach hooks run once around the whole
 * property, not around each run: no property here uses them.
 */
type ArbitraryTuple<Ts extends [unknown] | unknown[]> = {[P in keyof Ts]: fc.Arbitrary<Ts[P]>}
type Prop<Ts extends [unknown] | unknown[]> = (...args: Ts) => boolean | void | PromiseLike<boolean | void>

function prop<Ts extends [unknown] | unknown[], TsParameters extends Ts = Ts>(arbitraries: ArbitraryTuple<Ts>, parameters: fc.Parameters<TsParameters> = {}) {
  return (name: string, body: Prop<Ts>, timeout?: number): void => {
    const seed = parameters.seed ?? fc.readConfigureGlobal().seed ?? (Date.now() ^ (Math.random() * 0x100000000))
    const predicate = async (...args: Ts): Promise<boolean | void> => body(...args)
    const property = (fc.asyncProperty as (...args: unknown[]) => fc.IAsyncPropertyWithHooks<Ts>)(...(arbitraries as unknown as unknown[]), predicate)
    vitestTest(`${name} (with seed=${seed})`, async () => {
      await fc.assert(property, {...(parameters as unknown as fc.Parameters<Ts>), seed})
    }, timeout)
  }
}

export const test = {prop}
export {fc}
