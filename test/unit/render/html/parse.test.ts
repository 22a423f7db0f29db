import {describe, expect, it} from 'vitest'
import {externalReferences, parseHtml} from './parse.js'

/** The structural checks of the report tests catch what they are meant to (planted violations). */
describe('the strict reader behind the HTML report tests', () => {
  it.each([
    ['<div><span></div></span>', /closes/],
    ['<p><div></div></p>', /inside <p>/],
    ['<summary><div></div></summary>', /inside <summary>/],
    ['<div title=x></div>', /unquoted|not separated/],
    ['<div title="a"b"></div>', /bad attribute|not separated/],
    ['<div>a < b</div>', /starts no tag/],
    ['<div>a & b</div>', /bare "&"/],
    ['<div>\x1b[31m</div>', /control character/],
    ['<br/><div/>', /outside SVG/],
    ['<div>', /never closed/],
  ])('rejects %j', (source, message) => {
    expect(() => parseHtml(source)).toThrow(message)
  })

  it('reads what the renderer writes', () => {
    const doc = parseHtml('<!DOCTYPE html><html><head><style>a{b:c}</style></head><body><p title="&quot;x&#39;">a &amp; b<br></p><svg><rect width="1"/></svg><script>if(a<b){}</script></body></html>')
    expect(doc.doctype).toBe('html')
    expect(externalReferences(doc)).toEqual([])
  })

  it.each([
    '<img src="x.png">',
    '<a href="https://example.com/">x</a>',
    '<a href="//cdn.example/x">x</a>',
    '<a href="report.css">x</a>',
    '<link rel="stylesheet" href="#x">',
    '<style>@import "x.css";</style>',
    '<style>@font-face{font-family:x;src:local(x)}</style>',
    '<div style="background:url(x.png)"></div>',
    '<script src="#x"></script>',
    '<script>fetch("/x")</script>',
    '<iframe></iframe>',
  ])('flags %s as an external reference', (source) => {
    expect(externalReferences(parseHtml(source)).length).toBeGreaterThan(0)
  })
})
