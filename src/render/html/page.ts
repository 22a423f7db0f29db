import {createHash} from 'node:crypto'
import {html, raw, type Html} from './html.js'
import {STYLE} from './style.js'

/**
 * The optional script: the page reads the same without it. It shows the toolbar (expand or
 * collapse every turn and evidence list) and opens the turn or finding a link points at. It
 * holds no data and reads nothing but the DOM.
 */
export const SCRIPT = `(function(){
var d=document;
function all(open){var x=d.querySelectorAll('details');for(var i=0;i<x.length;i++)x[i].open=open}
var bar=d.getElementById('toolbar');
if(bar){bar.hidden=false;bar.addEventListener('click',function(e){var a=e.target&&e.target.getAttribute&&e.target.getAttribute('data-act');if(a)all(a==='open')})}
function reveal(){var id=location.hash.slice(1);if(!id)return;var el=d.getElementById(id);while(el){if(el.tagName==='DETAILS')el.open=true;el=el.parentElement}}
window.addEventListener('hashchange',reveal);reveal();
})();`

/** Only this script may run, and nothing may be fetched: a hostile string that slipped through still could not act. */
const SCRIPT_HASH = createHash('sha256').update(SCRIPT, 'utf8').digest('base64')
export const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; img-src data:; base-uri 'none'; form-action 'none'`

/** One self-contained document: inline style and script, no external resource of any kind. */
export function renderPage(title: string, body: Html): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="guardkit-replay">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>${raw(STYLE)}</style>
</head>
<body>
${body}
<script>${raw(SCRIPT)}</script>
</body>
</html>
`.value
}
