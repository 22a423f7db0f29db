/** Realistic and adversarial generators for the property tests (`*.props.test.ts`, docs/properties.md). */
export * from './config.js'
export * from './text.js'
export * from './pytest.js'
export * from './paths.js'
export * from './feedback.js'
export * from './criteria.js'
export * from './log-lines.js'
export * from './json.js'
