// Types of scripts/build-stamp.mjs (plain JavaScript, so that `npm run build` needs no TypeScript loader).
export declare const REPO: string
export declare const BUILD_INPUTS: readonly string[]
export declare function inputsHash(repo?: string): string
export declare function staleness(repo?: string): string | null
export declare function beginBuild(repo?: string): void
export declare function writeStamp(repo?: string): void
