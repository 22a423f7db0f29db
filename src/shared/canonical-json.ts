/**
 * JSON with a fixed key order (sorted by code point at every level) so that the same value always
 * serialises to the same bytes, whatever order its keys were built in.
 */
export function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => canonicalize(v))
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort(compareKeys)) {
      const v = (value as Record<string, unknown>)[key]
      if (v !== undefined) out[key] = canonicalize(v)
    }
    return out
  }
  return value
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export function canonicalJson(value: unknown, indent = 0): string {
  return JSON.stringify(canonicalize(value), null, indent)
}

/**
 * Serialise keeping the insertion order of keys (the order the report schema declares), with
 * `undefined` members dropped. Use for user-facing JSON whose field order is designed.
 */
export function stableJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent)
}
