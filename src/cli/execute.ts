// The entry bin/run.js starts through. It exists so that the build bundles oclif into the same
// shared chunks as the commands: one copy of @oclif/core, loaded from a few files instead of ~200
// (start-up is most of the < 300 ms budget of `inspect`). Development and tests use bin/dev.js,
// which imports @oclif/core from node_modules.
export {execute} from '@oclif/core/execute'
