/**
 * The page's only style sheet, inline: the daemon serves no other asset and needs no network.
 * Badges never wrap; below 600 px each run of the runs table is a wrapped line of its cells, the
 * changes under it, so every column stays on screen.
 */
export const STYLE = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#f6f8fa;--card:#fff;--line:#d1d9e0;
--add:#1a7f37;--mod:#9a6700;--del:#cf222e;--mov:#0969da;--bad:#cf222e;--good:#1a7f37}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--card:#151b23;
--line:#3d444d;--add:#3fb950;--mod:#d29922;--del:#f85149;--mov:#4493f8;--bad:#f85149;--good:#3fb950}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1100px;margin:0 auto;padding:12px}
header{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:baseline;margin:4px 0 12px}
h1{font-size:22px;margin:0}h2{font-size:17px;margin:0 0 8px}h3{font-size:15px;margin:12px 0 6px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 14px;margin:0 0 12px;overflow-wrap:anywhere}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:12px}
.grid>.card{margin:0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}dt{color:var(--muted)}dd{margin:0}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
.muted{color:var(--muted)}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:13px;border:1px solid var(--line);white-space:nowrap;overflow-wrap:normal}
.ok{color:var(--good);border-color:var(--good)}.bad{color:var(--bad);border-color:var(--bad)}.warn{color:var(--mod);border-color:var(--mod)}
.error{color:var(--bad);margin:6px 0}
ul.tree,ul.tree ul{list-style:none;margin:0;padding-left:18px}ul.tree{padding-left:0}
ul.tree li{margin:2px 0}
.node{display:inline-flex;gap:6px;align-items:baseline;max-width:100%}.node>.label,.node>.mono{min-width:0}
.mark{display:inline-block;width:1.2em;text-align:center;font-weight:700;font-family:ui-monospace,monospace}
.m-add{color:var(--add)}.m-mod{color:var(--mod)}.m-del{color:var(--del)}.m-mov{color:var(--mov)}
.m-del+.label{text-decoration:line-through}
.kind{font-size:12px;color:var(--muted);border:1px solid var(--line);border-radius:4px;padding:0 4px;white-space:nowrap;overflow-wrap:normal}
.fields{margin:2px 0 4px 1.6em;padding:0;list-style:none;font-family:ui-monospace,monospace;font-size:13px;color:var(--muted)}
.table{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600;white-space:nowrap}
details summary{cursor:pointer}
footer{color:var(--muted);font-size:13px;margin:8px 0 24px}
@media (max-width:600px){main{padding:8px}th,td{padding:4px 5px}
.runs,.runs tbody{display:block}.runs thead{display:none}
.runs tr{display:flex;flex-wrap:wrap;align-items:baseline;gap:2px 12px;padding:6px 0;border-bottom:1px solid var(--line)}
.runs td{padding:0;border:0}.runs td.changes{order:1;flex-basis:100%}
.runs td[data-label]::before{content:attr(data-label) " ";color:var(--muted)}}
`;
