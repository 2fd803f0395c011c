/**
 * The page's stylesheet: readable tables, a sticky header, and one column at phone width. The server
 * serves it as `/app.css` (the page's Content-Security-Policy allows no inline style).
 */
export const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,sans-serif;color:#1b1f24;background:#f6f7f9}
a{color:#0b57d0;text-decoration:none}a:hover{text-decoration:underline}
header{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;padding:10px 16px;background:#101828;color:#fff}
header a{color:#fff;font-weight:600}
header form{flex:1 1 260px;display:flex;gap:6px}
header input{flex:1;min-width:0;padding:6px 8px;border:0;border-radius:4px;font:inherit}
header button{padding:6px 10px;border:0;border-radius:4px;background:#3b82f6;color:#fff;font:inherit}
#banner{display:none;padding:8px 16px;background:#b42318;color:#fff;font-weight:600}
#banner.visible{display:block}
main{max-width:1200px;margin:0 auto;padding:12px 16px 40px}
section{background:#fff;border:1px solid #e4e7ec;border-radius:8px;padding:12px 14px;margin:12px 0}
h1{font-size:20px;margin:8px 0;word-break:break-all}h2{font-size:16px;margin:0 0 8px}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
.facts dt{color:#667085}.facts dd{margin:0;word-break:break-all;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eef0f3;white-space:nowrap}
th{color:#667085;font-weight:500}
.book{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.bids td:nth-child(1){color:#067647}.asks td:nth-child(1){color:#b42318}
.error{color:#b42318;font-weight:600}.ok{color:#067647;font-weight:600}.empty,.loading{color:#667085}
pre{white-space:pre-wrap;word-break:break-all;background:#f2f4f7;padding:8px;border-radius:4px;margin:4px 0;font-size:12px}
.chart-box{width:100%;overflow:hidden;margin:8px 0}
svg.chart{display:block;max-width:100%;height:auto;font:11px system-ui,sans-serif}
svg.chart .plot{fill:#fcfcfd;stroke:#e4e7ec}
svg.chart .grid{stroke:#eef0f3;stroke-width:1}
svg.chart .label{fill:#667085}svg.chart .unit{font-weight:600}
svg.chart .wick{stroke-width:1.2}
svg.chart .up .wick{stroke:#067647}svg.chart .up .body{fill:#12b76a}
svg.chart .down .wick{stroke:#b42318}svg.chart .down .body{fill:#f04438}
svg.chart .last{stroke:#0b57d0;stroke-dasharray:4 3}svg.chart .last-tag{fill:#0b57d0}svg.chart .last-text{fill:#fff;font-weight:600}
svg.chart .volume{opacity:.35}svg.chart .volume.up{fill:#12b76a}svg.chart .volume.down{fill:#f04438}
.unit{color:#667085}
details>summary{cursor:pointer;color:#667085;margin:4px 0}
.message{border-top:1px solid #eef0f3;padding:8px 0}.message:first-of-type{border-top:0}
.mono{font-family:ui-monospace,monospace;font-size:12px}
select{font:inherit;padding:4px}
@media (max-width:640px){main{padding:8px}.book{grid-template-columns:1fr}.facts{grid-template-columns:1fr}.facts dt{margin-top:6px}th,td{padding:4px}}
`;
