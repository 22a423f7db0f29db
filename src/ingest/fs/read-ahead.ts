/**
 * Reads in a fixed order with up to `ahead` more reads in flight. A read of a small file is mostly waiting (lstat,
 * open, fstat, read, close, each a round trip to the thread pool): a worktree's artifacts read one after another
 * left the analysis of a run folder waiting ~40% of its time (docs/ingest.md "Speed and memory"). The results are
 * taken in the items' order, so whatever is done with them — issues above all — keeps that order.
 *
 * `take()` gives the next item's result; it is called once per item, in order.
 */
export function readAhead<T, R>(items: readonly T[], read: (item: T) => Promise<R>, ahead: number): () => Promise<R> {
  const started: Promise<R>[] = []
  let taken = 0
  return () => {
    if (taken >= items.length) throw new Error(`readAhead: ${items.length} items, a result asked for a ${taken + 1}th`)
    while (started.length < items.length && started.length <= taken + ahead) {
      const p = read(items[started.length]!)
      // a read that fails before its turn is not an unhandled rejection: it is thrown when taken
      p.catch(() => undefined)
      started.push(p)
    }
    return started[taken++]!
  }
}
