import type {LogicFlags} from '../../logic/changes.js'

/** A vector's input as parsed JSON. */
export type JsonObject = {readonly [key: string]: unknown}

export interface AdapterContext {
  /** The flags of the vector's version (legacy or fixed). */
  readonly flags: LogicFlags
  /** The vector's `version` as written. */
  readonly version: string
}

/**
 * Calls the model for one oracle function (docs/guardkit-logic.md §12) and returns the value in the vector's
 * output shape. Throws UnsupportedInput when the input has a shape the adapter cannot map.
 */
export type Adapter = (input: JsonObject, ctx: AdapterContext) => unknown

export type AdapterTable = Readonly<Record<string, Adapter>>

export class UnsupportedInput extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UnsupportedInput'
  }
}
