import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {ReportSchema} from '../../../../src/render/json/report.js'

interface Def {
  type: string
  shape?: Record<string, {_zod: {def: Def}}>
  innerType?: {_zod: {def: Def}}
  element?: {_zod: {def: Def}}
  valueType?: {_zod: {def: Def}}
}

/** Every field name anywhere in the schema. */
function fieldNames(def: Def, out = new Set<string>()): Set<string> {
  if (def.shape) {
    for (const [key, value] of Object.entries(def.shape)) {
      out.add(key)
      fieldNames(value._zod.def, out)
    }
  }
  for (const inner of [def.innerType, def.element, def.valueType]) if (inner) fieldNames(inner._zod.def, out)
  return out
}

describe('docs/json-schema.md', () => {
  it('documents every field of the exported schema', () => {
    const doc = readFileSync(new URL('../../../../docs/json-schema.md', import.meta.url), 'utf8')
    const names = [...fieldNames((ReportSchema as unknown as {_zod: {def: Def}})._zod.def)]
    expect(names.length).toBeGreaterThan(100)
    const missing = names.filter((n) => !new RegExp(`\\b${n}\\b`).test(doc))
    expect(missing).toEqual([])
  })
})
