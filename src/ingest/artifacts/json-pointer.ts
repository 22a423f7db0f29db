/** RFC 6901 JSON pointers: how evidence and issues point into an artifact. */

export function toPointer(path: readonly PropertyKey[]): string {
  return path.map((part) => '/' + String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('')
}

/** The value a pointer names, or undefined. */
export function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value
  let here: unknown = value
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    if (Array.isArray(here)) here = /^(0|[1-9]\d*)$/.test(key) ? here[Number(key)] : undefined
    else if (here !== null && typeof here === 'object' && Object.hasOwn(here, key)) here = (here as Record<string, unknown>)[key]
    else return undefined
  }
  return here
}
