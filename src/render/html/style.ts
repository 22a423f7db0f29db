/**
 * The page's one stylesheet, inline. System fonts only (no web fonts, nothing fetched). Colour is
 * never the only carrier of meaning: every block and marker has a text label. Print keeps the
 * colours (`print-color-adjust: exact`), drops the toolbar and keeps each turn on one page.
 */
export const STYLE = `
:root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--soft:#f6f8fa;--bg:#fff;--bad:#b42318;--bad-bg:#fde8e7;--ok:#1a7f37;--ok-bg:#dcf5e3;--warn:#8a5a00;--warn-bg:#fff1cc;--info:#0b5cad;--info-bg:#dbeafe;--mono:ui-monospace,SFMono-Regular,"DejaVu Sans Mono",Menlo,Consolas,monospace;color-scheme:light}
*{box-sizing:border-box}
html{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{overflow-wrap:break-word;margin:0 auto;max-width:1280px;padding:16px 20px 40px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:20px;margin:0 0 4px}
h2{font-size:17px;margin:28px 0 8px;padding-top:8px;border-top:2px solid var(--fg)}
h3{font-size:15px;margin:18px 0 6px}
a{color:var(--info)}
code,pre,.mono{font-family:var(--mono);font-size:12.5px}
code{overflow-wrap:anywhere}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:6px 8px;margin:4px 0}
.muted{color:var(--muted)}
.small{font-size:12px}
.meta{color:var(--muted);margin:0 0 2px}
#toolbar{float:right;display:flex;gap:6px}
#toolbar[hidden]{display:none}
button{font:inherit;font-size:12px;padding:2px 8px;border:1px solid var(--line);border-radius:4px;background:var(--soft);cursor:pointer}
table.grid{border-collapse:collapse;margin:6px 0;font-size:13px}
table.grid th,table.grid td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
table.grid thead th{background:var(--soft)}
.ok{color:var(--ok)}.bad{color:var(--bad)}.warn{color:var(--warn)}
.mark{font-weight:700}
.verdicts td.outcome{min-width:14em}
.verdicts th{white-space:nowrap}
.task{margin-top:10px}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0}
dl.kv dt{font-weight:600;color:var(--muted)}
dl.kv dd{margin:0}
ul.plain{margin:4px 0;padding-left:18px}
.sev{display:inline-block;min-width:5.5em;text-align:center;border-radius:3px;padding:0 4px;font-size:12px;font-weight:700;border:1px solid}
.sev-critical{background:var(--bad);color:#fff;border-color:var(--bad)}
.sev-high{background:var(--bad-bg);color:var(--bad);border-color:var(--bad)}
.sev-medium{background:var(--warn-bg);color:var(--warn);border-color:var(--warn)}
.sev-low{background:var(--soft);color:var(--fg);border-color:var(--line)}
.sev-info{background:var(--bg);color:var(--muted);border-color:var(--line)}
ol.findings{list-style:none;padding:0;margin:6px 0}
ol.findings>li{border:1px solid var(--line);border-left-width:4px;border-radius:4px;padding:6px 10px;margin:6px 0;break-inside:avoid}
ol.findings>li.sev-border-critical,ol.findings>li.sev-border-high{border-left-color:var(--bad)}
ol.findings>li.sev-border-medium{border-left-color:var(--warn)}
ol.findings>li:target,.tl-turn:target>summary{outline:3px solid var(--info);outline-offset:-1px}
.finding-head{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline}
.finding-head .code{font-family:var(--mono);font-weight:700}
.tl-wrap{overflow-x:auto;border:1px solid var(--line);border-radius:4px;margin:8px 0}
.tl{font-size:13px}
.tl-row{display:grid;grid-template-columns:var(--cols);align-items:stretch;min-width:var(--min-width)}
/* the columns are in em of the row: the header's smaller text is set on its cells, not on the row */
.tl-head{background:var(--soft);font-weight:600;border-bottom:1px solid var(--line);position:sticky;top:0;z-index:1}
.tl-head>span{display:block;font-size:12px;white-space:normal;overflow-wrap:anywhere}
.tl-row>span{padding:3px 6px;display:flex;align-items:center;gap:4px;white-space:nowrap;min-height:26px}
.tl-turn{border-bottom:1px solid var(--line);break-inside:avoid}
.tl-turn>summary{list-style:none;cursor:pointer}
.tl-turn>summary::-webkit-details-marker{display:none}
.tl-turn>summary:hover{background:var(--soft)}
.tl-turn[open]>summary{background:var(--soft)}
.tl-num{font-weight:700;justify-content:flex-end}
.tl-row>span.lane{flex-wrap:wrap;row-gap:0}
.tl-row>span.markers{flex-wrap:wrap;white-space:normal;row-gap:2px}
.tl-num::before{content:"▸";color:var(--muted);font-weight:400;margin-right:auto}
.tl-turn[open] .tl-num::before{content:"▾"}
.tl-turn.wasted>summary{background:var(--bad-bg);box-shadow:inset 6px 0 0 var(--bad)}
.tl-turn.wasted>summary:hover,.tl-turn.wasted[open]>summary{background:#fbd5d2}
.chip-wasted{background:var(--bad-bg);color:var(--bad);border-color:var(--bad)}
.waste-band{background:var(--bad-bg);border-left:6px solid var(--bad);border-radius:3px;padding:6px 10px;margin:8px 0}
.primary{border:1px solid var(--line);border-left:6px solid var(--bad);border-radius:3px;background:var(--soft);padding:4px 10px;margin:8px 0}
.primary p{margin:4px 0}
.chip-cause{background:var(--bg);color:var(--fg);border-color:var(--fg);font-family:var(--mono)}
q.quote{display:block;quotes:"“" "”";font-family:var(--mono);font-size:12px;white-space:pre-wrap;overflow-wrap:anywhere;background:var(--soft);border-left:3px solid var(--line);padding:1px 6px;margin:2px 0 4px}
.lbl{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
caption{text-align:left;padding:2px 0 4px;caption-side:top}
details.task{margin-top:10px;border-top:1px solid var(--line)}
details.task>summary{cursor:pointer;padding:4px 0}
details.task>summary>h2{display:inline;border:none;margin:0;padding:0;font-size:15px}
.fine>h2{font-size:15px}
.tl-turn.ends>summary{border-top:2px solid var(--bad)}
.tl-turn.stops>summary{border-top:2px solid var(--info)}
.sig{display:inline-block;min-width:5.6em;text-align:center;padding:0 4px;border-radius:3px;border:1px solid;font-family:var(--mono);font-size:12px;line-height:18px;color:#111}
.sig.approx{border-style:dashed}
.sig.fired{font-weight:700;box-shadow:0 0 0 2px var(--bad)}
.lane.win{border-left:3px solid var(--fg);border-right:3px solid var(--fg)}
.lane.win-first{border-top:3px solid var(--fg)}
.lane.win-last{border-bottom:3px solid var(--fg)}
.nosig{color:var(--muted);font-size:12px}
.stopped{color:var(--muted);font-size:12px;background:repeating-linear-gradient(135deg,#eaeef2 0 4px,transparent 4px 8px)}
.bar{vertical-align:middle}
.chip{display:inline-block;border-radius:9px;padding:0 7px;font-size:12px;line-height:18px;border:1px solid;white-space:nowrap;max-width:100%}
.chip-fixed-stall,.chip-profile-stall,.chip-profile-end{white-space:normal}
.chip-fixed-stall{background:var(--info-bg);color:var(--info);border-color:var(--info);font-weight:700}
.chip-profile-stall,.chip-profile-end{background:#efe9fb;color:#5b3e9e;border-color:#8c6bd1}
.chip-recorded-stall{background:var(--bad-bg);color:var(--bad);border-color:var(--bad);font-weight:700}
.chip-timeout,.chip-player-timeout,.chip-max-turns{background:var(--warn-bg);color:var(--warn);border-color:var(--warn);font-weight:700}
.chip-cancelled,.chip-crash,.chip-critical-error{background:var(--bad);color:#fff;border-color:var(--bad);font-weight:700}
.chip-pollution,.chip-rollback,.chip-recorded-end{background:var(--soft);color:var(--fg);border-color:var(--line)}
.chip-class-regressed,.chip-effect-regression{background:var(--bad);color:#fff;border-color:var(--bad);font-weight:700}
.chip-class-changed,.chip-effect-change{background:var(--warn-bg);color:var(--warn);border-color:var(--warn)}
.chip-class-improved,.chip-effect-improvement{background:var(--ok-bg);color:var(--ok);border-color:var(--ok)}
.chip-class-skipped,.chip-class-unchanged{background:var(--soft);color:var(--muted);border-color:var(--line)}
a.chip{text-decoration:none}
tr.differs>th{box-shadow:inset 4px 0 0 var(--warn)}
.gate-task{border-top:1px solid var(--line);padding-top:6px;margin-top:14px}
.gate-task>details>summary{cursor:pointer}
.gate-task>details>summary>h3{display:inline}
svg.gate-bar{max-width:100%;height:14px}
.toc ol{margin:4px 0;padding-left:20px}
.tl-more{padding:6px 10px 10px 3.6em;border-top:1px dashed var(--line)}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;margin:6px 0;font-size:12px}
.legend>span{display:inline-flex;align-items:center;gap:4px}
.crit-table td.verdict{white-space:nowrap}
/* Narrow screens (a phone is 390 px): nothing scrolls the page sideways and nothing is clipped. A turn's
   cells wrap under one another with their column's name; the verdict table stacks its cells; other wide
   tables scroll within themselves. */
@media (max-width:720px){
  body{padding:10px 10px 30px;overflow-wrap:anywhere}
  #toolbar{float:none;margin-bottom:6px}
  .tl-wrap{overflow:visible}
  .tl-row{display:flex;flex-wrap:wrap;min-width:0;gap:0 10px;padding:2px 0}
  .tl-row.tl-head{display:none}
  .tl-row>span{white-space:normal;min-height:0;padding:1px 4px}
  .tl-num{flex-basis:100%;justify-content:flex-start}
  .tl-num::before{margin-right:6px}
  .lbl{position:static;width:auto;height:auto;margin:0 4px 0 0;overflow:visible;clip:auto;color:var(--muted);font-size:11px}
  .tl-more{padding:6px 4px 10px}
  .lane.win{border-left-width:3px;border-right-width:0}
  table.grid{display:block;max-width:100%;overflow-x:auto}
  table.stack,table.stack thead,table.stack tbody,table.stack tr,table.stack th,table.stack td,table.stack caption{display:block}
  table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
  table.stack tr{border-top:1px solid var(--line);padding:4px 0}
  table.stack th,table.stack td{border:none;padding:1px 4px}
  table.stack td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-family:var(--mono);font-size:11px}
  .verdicts td.outcome{min-width:0}
  dl.kv{grid-template-columns:1fr}
  dl.kv dt{margin-top:4px}
  h2{font-size:16px}
}
@media print{
  body{max-width:none;padding:0;font-size:11px}
  #toolbar,.noprint{display:none!important}
  .tl-wrap{overflow:visible;border:none}
  .tl-head{position:static}
  .tl-num::before{content:none}
  h2{break-before:auto;break-after:avoid}
  a{color:inherit;text-decoration:none}
}
`
