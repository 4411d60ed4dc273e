extension HTMLReport {
    /// Colours from the Okabe–Ito palette (told apart with every common colour-vision deficiency):
    /// blue for focus and procrastination-free days, vermillion for distraction and procrastinated
    /// days, reddish purple for causes. Focus share uses a sequential blue whose lowest class still
    /// stands out from the card in both schemes, and empty cells sit just off the card's colour so
    /// they never glare in the dark.
    static let style = """

        :root {
          color-scheme: light dark;
          --page: #f1f3f6; --card: #ffffff; --ink: #1a2230; --muted: #5b6576; --rule: #dde2e8; --grid: #e8ebef;
          --focus: #0072b2; --distracted: #d55e00; --cause: #cc79a7; --free: #0072b2; --procrastinated: #d55e00;
          --app-neutral: #8d96a3; --good: #005f99; --bad: #b04600; --mark: #1a2230;
          --empty: #eceff3; --h0: #b8d5ee; --h1: #88bbe0; --h2: #5299cf; --h3: #2a72b3; --h4: #0b4a8a;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --page: #0d1015; --card: #161b22; --ink: #e3e8ee; --muted: #98a2b0; --rule: #29303a; --grid: #222932;
            --focus: #3d9ee0; --distracted: #ec7a32; --cause: #dd92bf; --free: #3d9ee0; --procrastinated: #ec7a32;
            --app-neutral: #6d7683; --good: #7cc0f0; --bad: #f59a5e; --mark: #e3e8ee;
            --empty: #1e242c; --h0: #24415f; --h1: #2a6193; --h2: #3a86c6; --h3: #6cb2e8; --h4: #b8defa;
          }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; background: var(--page); color: var(--ink); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
        .page { max-width: 1920px; margin: 0 auto; padding: 22px clamp(10px, 2.5vw, 32px) 28px; }
        .muted { color: var(--muted); }
        header.top { display: flex; flex-wrap: wrap; align-items: flex-end; justify-content: space-between; gap: 6px 28px; margin-bottom: 16px; }
        h1 { font-size: 1.65rem; line-height: 1.2; margin: 0; letter-spacing: -0.01em; }
        .period { font-size: 1.1rem; font-weight: 600; margin: 2px 0 0; }
        .meta { display: flex; flex-wrap: wrap; gap: 2px 20px; margin: 0; font-size: .88rem; }
        .meta div { display: flex; gap: 6px; }
        .meta dt { color: var(--muted); } .meta dd { margin: 0; }
        .kpis { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 150px), 1fr)); gap: 12px; margin-bottom: 12px; }
        .kpi, .card { background: var(--card); border: 1px solid var(--rule); border-radius: 12px; }
        .kpi { padding: 12px 14px 11px; min-width: 0; display: flex; flex-direction: column; }
        .kpi .changes { margin-top: auto; }
        .kpi h3 { margin: 0; font-size: .74rem; font-weight: 600; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
        .kpi .value { margin: 4px 0 0; font-size: 1.7rem; font-weight: 700; line-height: 1.1; font-variant-numeric: tabular-nums; }
        .kpi .value small { font-size: .58em; font-weight: 600; color: var(--muted); }
        .kpi .sub { margin: 4px 0 0; font-size: .82rem; color: var(--muted); }
        .delta { margin: 8px 0 0; font-size: .84rem; font-weight: 600; }
        .delta + .delta { margin-top: 2px; }
        .delta .arrow { font-size: 1rem; }
        .delta .was { font-weight: 400; color: var(--muted); }
        .delta.good { color: var(--good); } .delta.bad { color: var(--bad); }
        .delta.neutral, .delta.same, .delta.none { color: var(--muted); }
        .delta.none { font-weight: 400; font-style: italic; }
        .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 480px), 1fr)); gap: 12px; align-items: start; }
        .card { padding: 14px 16px 12px; min-width: 0; overflow-wrap: anywhere; }
        .card.wide { grid-column: 1 / -1; }
        .card h2 { font-size: 1.02rem; margin: 0; }
        .card .about { margin: 2px 0 10px; font-size: .84rem; color: var(--muted); }
        .facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 140px), 1fr)); gap: 10px 16px; margin: 10px 0 4px; }
        .fact { display: flex; flex-direction: column; padding-left: 10px; border-left: 3px solid var(--rule); }
        .fact .k { font-size: .78rem; color: var(--muted); }
        .fact .v { font-size: 1.3rem; font-weight: 700; line-height: 1.2; }
        .fact .d { font-size: .82rem; color: var(--muted); }
        .lead { font-size: 1rem; margin: 8px 0; }
        .note { margin: 8px 0 0; font-size: .8rem; color: var(--muted); }
        svg.chart { display: block; width: 100%; height: auto; overflow: visible; font-family: inherit; }
        svg .label { fill: var(--muted); } svg .strong { fill: var(--ink); } svg .mark { fill: var(--mark); }
        svg .gridline { stroke: var(--grid); stroke-width: 1; } svg .axis { stroke: var(--rule); stroke-width: 1; }
        .focus { fill: var(--focus); } .focus-thin { fill: var(--focus); fill-opacity: .45; }
        .distracted { fill: var(--distracted); } .distracted-thin { fill: var(--distracted); fill-opacity: .45; }
        .cause { fill: var(--cause); } .none { fill: var(--rule); }
        .app-work { fill: var(--focus); } .app-neutral { fill: var(--app-neutral); } .app-distracting { fill: var(--distracted); }
        .tl-session { fill: var(--h1); } .tl-episode { fill: var(--cause); }
        .tl-away { fill: var(--grid); stroke: var(--muted); } .tl-locked { fill: var(--muted); fill-opacity: .5; } .tl-asleep { fill: var(--rule); }
        .timeline { margin: 8px 0 6px; }
        .tl-date { margin: 0 0 4px; font-size: .84rem; font-weight: 600; }
        .tl-lane { margin: 0 0 6px; }
        .tl-name { display: block; font-size: .76rem; color: var(--muted); margin-bottom: 1px; }
        .tl-track { position: relative; height: 16px; background: var(--empty); border-radius: 3px; overflow: hidden; }
        .tl-track i { position: absolute; top: 0; bottom: 0; min-width: 1px; }
        .tl-track .tl-session { background: var(--h1); } .tl-track .tl-episode { background: var(--cause); }
        .tl-track .app-work { background: var(--focus); } .tl-track .app-neutral { background: var(--app-neutral); }
        .tl-track .app-distracting { background: var(--distracted); } .tl-track .app-none { background: var(--muted); opacity: .4; }
        .tl-track .tl-away { background: repeating-linear-gradient(135deg, var(--muted) 0 2px, transparent 2px 5px); opacity: .6; }
        .tl-track .tl-locked { background: var(--muted); opacity: .5; } .tl-track .tl-asleep { background: var(--rule); }
        .tl-axis { position: relative; height: 16px; font-size: .72rem; color: var(--muted); font-variant-numeric: tabular-nums; }
        .tl-axis span { position: absolute; top: 0; transform: translateX(-50%); }
        .tl-axis span:first-child { transform: none; }
        @media (max-width: 560px) { .tl-axis .minor { display: none; } }
        .goal + .goal { margin-top: 10px; padding-top: 8px; border-top: 1px solid var(--rule); }
        .goal-name { margin: 0 0 4px; } .goal-marks { margin: 0; display: flex; flex-wrap: wrap; gap: 2px; line-height: 0; }
        .goal-marks .sw { width: 12px; height: 12px; }
        .hatch-line { fill: var(--card); fill-opacity: .8; }
        .empty { fill: var(--empty); }
        .h0 { fill: var(--h0); } .h1 { fill: var(--h1); } .h2 { fill: var(--h2); } .h3 { fill: var(--h3); } .h4 { fill: var(--h4); }
        .ring { fill: none; stroke: var(--mark); stroke-width: 2; }
        .free { fill: var(--free); } .procrastinated { fill: var(--procrastinated); } .noday { fill: none; stroke: var(--muted); stroke-opacity: .55; }
        .share-line { fill: none; stroke: var(--ink); stroke-width: 2; stroke-linejoin: round; } .share-dot { fill: var(--ink); }
        .legend { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 14px; margin: 10px 0 0; font-size: .8rem; color: var(--muted); }
        .legend > span { display: inline-flex; align-items: center; gap: 6px; }
        .legend svg.sw { width: 12px; height: 12px; flex: none; }
        .legend b.mark { color: var(--mark); font-weight: 400; }
        table.apps { width: 100%; border-collapse: collapse; margin: 12px 0 0; font-size: .86rem; }
        table.apps th, table.apps td { padding: 5px 6px; border-top: 1px solid var(--rule); text-align: left; vertical-align: top; }
        table.apps thead th { border-top: 0; font-size: .72rem; font-weight: 600; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); white-space: nowrap; }
        table.apps tbody th { width: 55%; font-weight: 600; overflow-wrap: anywhere; }
        table.apps td:nth-child(2) { width: 35%; }
        table.apps .category { display: block; font-size: .78rem; font-weight: 400; color: var(--muted); white-space: nowrap; }
        table.apps svg.sw { width: 10px; height: 10px; margin-right: 5px; vertical-align: -1px; }
        table.apps .num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
        table.apps .times { display: block; font-size: .76rem; color: var(--muted); }
        table.apps .bar { display: block; height: 4px; margin-top: 3px; border-radius: 2px; background: var(--grid); }
        table.apps .bar span { display: block; height: 4px; border-radius: 2px; }
        table.apps .bar .app-work { background: var(--focus); } table.apps .bar .app-neutral { background: var(--app-neutral); }
        table.apps .bar .app-distracting { background: var(--distracted); }
        .streak { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: flex-start; }
        .streak svg.chart { flex: none; min-width: 0; }
        .streak-words { flex: 1 1 200px; font-size: .88rem; }
        .streak-words p { margin: 0 0 4px; }
        ul.achievements { list-style: none; margin: 0; padding: 0; }
        ul.achievements li { display: flex; flex-wrap: wrap; align-items: baseline; gap: 2px 10px; padding: 6px 0; border-top: 1px solid var(--rule); }
        ul.achievements li:first-child { border-top: 0; }
        ul.achievements .title { flex: 1 1 200px; }
        ul.achievements time { color: var(--muted); font-size: .85rem; font-variant-numeric: tabular-nums; }
        ul.achievements .badge { font-size: .72rem; font-weight: 700; text-transform: uppercase; letter-spacing: .04em; padding: 1px 7px; border-radius: 999px; border: 1.5px solid var(--good); color: var(--good); }
        ul.achievements li.new .title { font-weight: 600; }
        ul.achievements li.new .title::before { content: "★ "; color: var(--good); }
        footer { margin-top: 18px; font-size: .78rem; color: var(--muted); }
        code { font-size: .95em; }
        @media (max-width: 560px) {
          body { font-size: 14px; }
          .page { padding-top: 14px; }
          .kpis { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 8px; }
          .kpi { padding: 10px 11px; }
          .kpi .value { font-size: 1.4rem; }
          .card { padding: 12px 11px 10px; }
          .grid { gap: 8px; }
        }
        @media print {
          :root {
            --page: #fff; --card: #fff; --ink: #000; --muted: #444; --rule: #bbb; --grid: #ddd;
            --focus: #0072b2; --distracted: #d55e00; --cause: #cc79a7; --free: #0072b2; --procrastinated: #d55e00;
            --app-neutral: #8d96a3; --good: #005f99; --bad: #b04600; --mark: #000;
            --empty: #eceff3; --h0: #b8d5ee; --h1: #88bbe0; --h2: #5299cf; --h3: #2a72b3; --h4: #0b4a8a;
          }
          body { background: #fff; font-size: 11pt; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
          .page { max-width: none; padding: 0; }
          .grid { display: block; }
          .card, .kpi { break-inside: avoid; page-break-inside: avoid; }
          .card { margin: 0 0 10px; border-color: #bbb; }
          .kpis { grid-template-columns: repeat(3, 1fr); }
          svg.chart { max-width: 17cm; }
        }

        """
}
