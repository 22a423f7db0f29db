/** The built-in catalogue's source, relative to the repository (origins of built-in rules name it). */
export const CATALOGUE_FILE = 'src/explain/diagnosis/catalogue/signals.yaml'

/** docs/signals.md: the generated rule list follows this line. */
export const DOC_MARKER = '<!-- the rules below are generated from signals.yaml by `npm run signals` -->'
