"""The site's one stylesheet (written as ``style.css``; inlined in a single-run HTML report)."""

CSS = """\
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --link: #0550ae; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
a { color: var(--link); }
header.top { background: #2d2219; color: #f1e4c8; padding: .5rem 1.5rem; }
header.top a { color: #f1e4c8; text-decoration: none; margin-right: 1rem; }
header.top a:hover { text-decoration: underline; }
main { max-width: 1100px; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
footer { color: var(--muted); font-size: 13px; border-top: 1px solid var(--line);
  max-width: 1100px; margin: 0 auto; padding: 1rem 1.5rem; }
h1 { font-size: 1.7rem; margin: .6rem 0; }
h2 { font-size: 1.3rem; margin-top: 2rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
h3 { font-size: 1.1rem; margin: 1.2rem 0 .3rem; }
h4 { font-size: 1rem; margin: .8rem 0 .2rem; }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  background: var(--soft); padding: 0 .25em; border-radius: 3px; overflow-wrap: anywhere; }
pre { background: var(--soft); padding: .6rem; overflow-x: auto; font-size: 12px; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num, th.num { text-align: right; }
.summary { font-size: 1.05rem; background: #fff8e6; border-left: 4px solid #d4a72c; padding: .5rem .8rem; }
.muted { color: var(--muted); }
nav.pager { display: flex; justify-content: space-between; margin: .5rem 0; }
table.matrix td.rate { text-align: center; white-space: nowrap; }
table.matrix td.rate a { color: inherit; text-decoration: none; display: block; }
table.matrix td.rate a:hover { text-decoration: underline; }
.rate-full { background: #dafbe1; } .rate-high { background: #fff1c2; }
.rate-mid { background: #ffd8b5; } .rate-low { background: #ffc1c0; } .rate-na { background: #eef1f4; color: var(--muted); }
.st { display: inline-block; border-radius: 3px; padding: 0 .4em; font-size: 12px; font-weight: 600;
  text-transform: uppercase; letter-spacing: .02em; }
.st-pass { background: #dafbe1; color: #116329; } .st-fail { background: #ffc1c0; color: #82071e; }
.st-error { background: #f4d7fb; color: #6e1a8a; } .st-skip { background: #fff1c2; color: #7d4e00; }
.st-unsupported, .st-none { background: #eef1f4; color: var(--muted); }
.st-blocked { background: #fff1c2; color: #6b4400; } .st-known { background: #ffe2cc; color: #762c00; }
section.case { border: 1px solid var(--line); border-radius: 6px; padding: .3rem 1rem .8rem; margin: 1rem 0; }
section.case > h3 { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 1rem; }
.case-body { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
.case-body > .questions { flex: 1 1 360px; min-width: 0; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .8rem; margin: .3rem 0; font-size: 14px; }
dl.meta dt { color: var(--muted); } dl.meta dd { margin: 0; overflow-wrap: anywhere; }
figure.diagram { margin: .3rem 0; max-width: 340px; }
figure.diagram svg { display: block; max-width: 100%; height: auto; }
figure.diagram figcaption { font-size: 12.5px; color: var(--muted); }
ul.legend { list-style: none; padding: 0; margin: .2rem 0; }
ul.legend li { display: inline-block; margin-right: .8rem; }
.key { display: inline-block; width: 1.2em; height: .4em; vertical-align: middle; margin-right: .3em; }
.failure { border-left: 4px solid #cf222e; background: #fff5f5; padding: .3rem .8rem; margin: .6rem 0; }
.st-box-error { border-left-color: #8250df; background: #fbf5ff; }
.st-box-blocked { border-left-color: #bf8700; background: #fffbeb; }
.failure figure.diagram { max-width: 340px; }
table.versus th { width: 6em; }
td.wrong { background: #ffc1c0; }
table.results td:first-child { white-space: nowrap; }
table.results td, table.versus td, .failure p, ul li { overflow-wrap: anywhere; }
.nodiagram { color: var(--muted); font-style: italic; }
.reading { border-left: 4px solid #8c959f; padding: .2rem .8rem; margin: .6rem 0; background: var(--soft); }
.line { overflow-wrap: anywhere; }
.wide { overflow-x: auto; max-width: 100%; }
section.defect { border-top: 1px solid var(--line); margin-top: 1rem; }
ul.results li { overflow-wrap: anywhere; }
ul.tally { padding-left: 1.2rem; columns: 2 22rem; font-size: 14px; }
ul.tally li { break-inside: avoid; overflow-wrap: anywhere; }
@media (max-width: 600px) {
  header.top { padding: .5rem .75rem; }
  main, footer { padding-left: .75rem; padding-right: .75rem; }
  section.case { padding: .3rem .5rem .6rem; }
  .failure { padding: .3rem .5rem; }
  .case-body > .questions { flex-basis: 100%; }
}
"""
