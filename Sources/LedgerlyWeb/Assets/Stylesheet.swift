/// The one stylesheet, served by the service at `/assets/ledgerly.css` (no CDN, no web fonts):
/// phone first (one column, 44 px tap targets, nothing wider than the screen), wider layouts
/// from 720 px, dark colours when the system asks for them (D514).
enum Stylesheet {
    static let css = """
    :root{--bg:#fbfbf8;--fg:#1b1d1f;--muted:#5a6068;--line:#d6d8da;--card:#fff;--accent:#0b5cad;--good:#1f7a3a;--warn:#9a6200;--bad:#b3261e;--first:#1f7a3a;--second:#b3261e;color-scheme:light dark}
    @media (prefers-color-scheme:dark){:root{--bg:#121416;--fg:#e8eaed;--muted:#a6adb5;--line:#3a3f44;--card:#1c1f22;--accent:#8ab4f8;--good:#7bd88f;--warn:#f2c15c;--bad:#ff8a80;--first:#7bd88f;--second:#ff8a80}}
    *{box-sizing:border-box}
    html{-webkit-text-size-adjust:100%}
    body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:anywhere}
    a{color:var(--accent)}
    .skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:var(--card);padding:8px}
    header{display:flex;flex-wrap:wrap;align-items:center;gap:4px 16px;padding:8px 12px;border-bottom:1px solid var(--line);background:var(--card)}
    .brand{font-weight:700;text-decoration:none;color:var(--fg);min-height:44px;display:inline-flex;align-items:center}
    nav ul{display:flex;flex-wrap:wrap;gap:4px;margin:0;padding:0;list-style:none}
    nav a{display:inline-flex;align-items:center;min-height:44px;padding:0 12px;border-radius:8px;text-decoration:none}
    nav a[aria-current=page]{background:var(--accent);color:var(--bg)}
    header nav{flex:1 1 100%}header nav a{padding:0 10px}
    header nav li.wide-only{display:none}
    @media (min-width:720px){header nav{flex:0 1 auto}header nav li.wide-only{display:list-item}}
    .all-pages{max-width:1100px;margin:0 auto;padding:12px;text-align:left;border-top:1px solid var(--line)}
    .all-pages h2{font-size:1rem;margin:0 0 4px;color:var(--fg)}.all-pages h3{font-size:.875rem;margin:8px 0 0;color:var(--muted)}
    .all-pages .groups{display:grid;grid-template-columns:1fr 1fr;gap:0 12px}
    @media (min-width:720px){.all-pages .groups{grid-template-columns:repeat(6,1fr)}}
    .all-pages ul{list-style:none;margin:0;padding:0}
    .all-pages a{display:flex;align-items:center;min-height:44px;font-size:1rem}
    .all-pages a[aria-current=page]{font-weight:700;color:var(--fg)}
    .tabs{display:flex;flex-wrap:wrap;gap:4px;margin:0 0 12px;padding:0;list-style:none}
    .tabs a{display:inline-flex;align-items:center;min-height:44px;padding:0 12px;border:1px solid var(--line);border-radius:8px;text-decoration:none}
    .tabs a[aria-current=page]{background:var(--accent);color:var(--bg);border-color:var(--accent)}
    main>section.card,main>form.card,.stack-sections>section.card{margin-bottom:12px}
    dl.figures{display:grid;grid-template-columns:1fr;gap:0 16px;margin:0 0 8px}
    @media (min-width:720px){dl.figures{grid-template-columns:repeat(3,1fr)}}
    dl.figures div{display:flex;justify-content:space-between;gap:8px;border-bottom:1px solid var(--line);padding:4px 0}dl.figures dt{color:var(--muted)}dl.figures dd{margin:0}
    .bar-cell{min-width:72px;width:30%;vertical-align:middle}
    .scroll{overflow-x:auto;max-width:100%}
    .scroll table{width:auto;min-width:100%}
    .scroll th:first-child{position:sticky;left:0;background:var(--card)}
    .depth1{padding-left:20px}.depth2{padding-left:36px}.depth3{padding-left:52px}
    svg.share{width:100%;height:12px;display:block}.share .track{fill:var(--line)}.share .fill{fill:var(--accent)}
    .chart .line.second{stroke:var(--first)}.chart .line.third{stroke:var(--warn)}.chart .dot.second{fill:var(--first)}.chart .dot.third{fill:var(--warn)}
    .key.line-first::before{background:var(--accent)}.key.line-second::before{background:var(--first)}.key.line-third::before{background:var(--warn)}
    main{padding:12px;max-width:1100px;margin:0 auto}
    h1{font-size:1.5rem;margin:8px 0 12px}h2{font-size:1.15rem;margin:0 0 8px}
    footer{padding:12px;color:var(--muted);font-size:.875rem;text-align:center}
    .cards{display:grid;grid-template-columns:1fr;gap:12px}
    @media (min-width:720px){.cards{grid-template-columns:1fr 1fr}.wide{grid-column:1/-1}}
    section.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:12px;min-width:0}
    .figure{font-size:1.75rem;font-weight:700;font-variant-numeric:tabular-nums}
    .muted,.empty{color:var(--muted)}
    .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
    table{width:100%;border-collapse:collapse}th,td{padding:6px 4px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
    .list{list-style:none;margin:0;padding:0}.list li{border-bottom:1px solid var(--line)}
    .list a.row{display:flex;justify-content:space-between;gap:12px;align-items:center;min-height:44px;padding:8px 4px;text-decoration:none;color:var(--fg)}
    .list .row span:first-child{min-width:0}
    .chart{margin:0}.chart svg{width:100%;height:auto;max-height:340px;display:block}
    .chart .grid{stroke:var(--line);stroke-width:1}.chart .tick{fill:var(--muted);font-size:18px}
    .chart .line{stroke:var(--accent);stroke-width:2.5}.chart .dot{fill:var(--accent)}
    .bar.first{fill:var(--first)}.bar.second{fill:var(--second)}
    .key::before{content:"";display:inline-block;width:10px;height:10px;margin-right:4px;border-radius:2px}
    .key.first::before{background:var(--first)}.key.second::before{background:var(--second)}
    svg.budget{width:100%;height:20px;display:block}
    .budget .track{fill:var(--line)}.budget .fill.ok{fill:var(--good)}.budget .fill.near{fill:var(--warn)}.budget .fill.over{fill:var(--bad)}
    .budget .mark{stroke:var(--fg);stroke-width:1.5}
    svg.spark{width:100px;height:24px;vertical-align:middle}svg.spark polyline{stroke:var(--accent);stroke-width:1.5}
    details summary{min-height:44px;display:flex;align-items:center;cursor:pointer;color:var(--muted)}
    form.stack{display:grid;gap:12px;max-width:560px}
    form.stack label{display:block;font-weight:600}
    input,select,textarea{font:inherit;width:100%;min-height:44px;padding:8px;border:1px solid var(--muted);border-radius:8px;background:var(--card);color:var(--fg)}
    textarea{min-height:88px}
    fieldset{border:1px solid var(--line);border-radius:8px;padding:8px}
    fieldset label{display:flex;align-items:center;gap:8px;min-height:44px;font-weight:400}
    fieldset input{width:auto;min-height:0}
    button,.button{font:inherit;min-height:44px;min-width:44px;padding:8px 16px;border-radius:8px;border:1px solid var(--accent);background:var(--accent);color:var(--bg);cursor:pointer;text-decoration:none;display:inline-flex;align-items:center;justify-content:center}
    button.secondary{background:transparent;color:var(--accent)}button.danger{background:var(--bad);border-color:var(--bad)}
    .error{color:var(--bad);font-weight:600;margin:4px 0 0}
    .notice{border:1px solid var(--warn);border-radius:8px;padding:8px 12px}
    .pager{display:flex;gap:8px;flex-wrap:wrap;margin-top:12px}
    .filters{display:grid;grid-template-columns:1fr;gap:8px;margin-bottom:12px}
    @media (min-width:720px){.filters{grid-template-columns:repeat(4,1fr) auto;align-items:end}}
    code{overflow-wrap:anywhere}
    """
}
