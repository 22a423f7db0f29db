// A comment cites only what a clone of the repository holds: docs/…, README.md (docs/contributing.md). An issue,
// a brief or a document kept outside the repository is a dead end for the next reader, so a comment states the
// requirement itself or names the docs/ page that holds it. test/docs/citations.test.ts checks the strings and
// Markdown of src/, bench/ and scripts/ for outside documents; this rule reads every comment ESLint reads, tests included.

/**
 * The citations a comment may not make. An issue is cited by its title in quotes, its number, or a parenthesis
 * that opens with the word; the word in prose ("an ingest issue", "one issue per file", "the issues keep that
 * order", a JSON key in quotes) is left alone.
 */
export const CITATIONS = [
  {name: 'an issue', pattern: /\bissues?(?:\s*[:,]\s*|\s+)["“']|\bissues?\s*#\d|\bissues?\s+\d|\((?:see\s+)?issues?\s*[:,)]/i, use: 'the requirement itself, or the docs/ page that holds it'},
  {name: 'the brief', pattern: /\bthe brief\b/i, use: 'what the code does and why'},
  {name: 'the shared spec', pattern: /\bspec\s*§/i, use: 'docs/guardkit-logic.md §N'},
  {name: 'FORMATS.md', pattern: /\bFORMATS\b/, use: 'docs/record-formats.md §N'},
  {name: 'contract.md', pattern: /\bcontract\.md\b|\(contract\s*[:"“(]|\bcontract\s+["“]/i, use: 'docs/json-schema.md or docs/cli.md'},
]

/** A comment's lines without a block comment's ` * ` margin, and their text joined by single spaces (a citation may span two lines). */
export function commentLines(value) {
  const lines = value.split('\n').map((line) => line.replace(/^\s*\*?\s?/, '').trim())
  const starts = []
  let at = 0
  for (const line of lines) {
    starts.push(at)
    at += line.length + 1
  }
  return {text: lines.join(' '), starts}
}

/** The citations a comment's text makes: each with the index of its line in the comment and the text it matched. */
export function citationsIn(value) {
  const {text, starts} = commentLines(value)
  return CITATIONS.flatMap((c) => {
    const m = c.pattern.exec(text)
    if (m === null) return []
    const line = starts.findLastIndex((s) => s <= m.index)
    return [{...c, line, text: text.slice(m.index, m.index + 48)}]
  })
}

export const noOutsideCitations = {
  meta: {
    type: 'problem',
    docs: {description: 'Comments cite only documents inside the repository: no issue, brief, spec §, FORMATS.md or contract.md'},
    schema: [],
    messages: {cited: 'This comment cites {{what}} ("{{text}}…"), which a clone does not have: write {{use}} (docs/contributing.md).'},
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          for (const c of citationsIn(comment.value)) {
            const line = comment.loc.start.line + c.line
            const loc = c.line === 0 ? comment.loc.start : {line, column: 0}
            context.report({loc, messageId: 'cited', data: {what: c.name, text: c.text, use: c.use}})
          }
        }
      },
    }
  },
}

export default {meta: {name: 'guardkit-replay-local'}, rules: {'no-outside-citations': noOutsideCitations}}
