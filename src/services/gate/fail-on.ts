/** The `--fail-on` values, for the gate command's flag (docs/ci.md). */
export {FAIL_ON, type FailOn} from '../../explain/gate/types.js'
