// A comment cites only what a clone of the repository holds: docs/…, README.md (docs/contributing.md). An issue,
// a brief or a document kept outside the repository is a dead end for the next reader, so a comment states the
// requirement itself or names the docs/ page that holds it. test/docs/citations.test.ts checks the strings and
// Markdown of src/, bench/ and scripts/ for outside documents; this rule reads every comment ESLint reads, tests included.
// The seed post-mortems are such documents too (docs/fixtures.md maps each seed to the fixture of its incident): a
// comment may name an incident ("seed 002"), not point into its post-mortem (a finding, recommendation, fix or appendix).

/**
 * The citations a comment may not make. An issue is cited by its title in quotes, its number, or a parenthesis
 * that opens with the word; the word in prose ("an ingest issue", "one issue per file", "the issues keep that
 * order", a JSON key in quotes) is left alone. A seed section is `seed 00N` (or `seeds 00N/00M`, `seed 00N's`) followed
 * within a few signs by `§N`, `F<n>`, `R<n>`, `App.`/`Appendix`, `Fix <n>`, `Finding <n>` or `Bug <n>`: the section
 * names the post-mortems use. The seed's name alone, and the S000-S004 rows of docs/guardkit-logic.md §2, are left alone.
 */
export const CITATIONS = [
  {name: 'an issue', pattern: /\bissues?(?:\s*[:,]\s*|\s+)["“']|\bissues?\s*#\d|\bissues?\s+\d|\((?:see\s+)?issues?\s*[:,)]/i, use: 'the requirement itself, or the docs/ page that holds it'},
  {name: 'the brief', pattern: /\bthe brief\b/i, use: 'what the code does and why'},
  {name: 'the shared spec', pattern: /\bspec\s*§/i, use: 'docs/guardkit-logic.md §N'},
  {name: 'FORMATS.md', pattern: /\bFORMATS\b/, use: 'docs/record-formats.md §N'},
  {name: 'contract.md', pattern: /\bcontract\.md\b|\(contract\s*[:"“(]|\bcontract\s+["“]/i, use: 'docs/json-schema.md or docs/cli.md'},
  {
    name: 'a section of a seed post-mortem',
    pattern: /\b[Ss]eeds?\s+00[0-4](?:\s*(?:[,/]|and)\s*00[0-4])*(?:['’]s)?[^A-Za-z0-9]{1,3}(?:§\s?\d|[FR]\d+\b|App(?:\.|endix\b)|Fix(?:es)?\s+\d|Finding\s+\d|Bug\s+\d)/,
    use: 'the fact itself, with the incident\'s fixture (docs/fixtures.md) or the docs/ page that states it',
  },
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
    docs: {description: 'Comments cite only documents inside the repository: no issue, brief, spec §, FORMATS.md, contract.md or seed section'},
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
