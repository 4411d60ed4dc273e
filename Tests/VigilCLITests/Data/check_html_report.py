#!/usr/bin/env python3
"""Checks an HTML report (`vigil report --format html`) the way a person would see it.

Usage: check_html_report.py REPORT.html WORKDIR

1. Without a browser: every chart (`<svg id>` with `data-series`) is well-formed XML (so every
   text from the log was escaped) and has tooltips, and every label, at an estimated width of
   0.6 em per character, lies inside the chart's viewBox.
2. In headless Chromium, light and dark, at a desktop's width (1280 px) and a phone's (390 px),
   the report loaded into an iframe of that width (headless windows are at least 500 px wide):
   - no label of any chart reaches outside its viewBox, measured with the real font (getBBox),
     and no two labels of a chart overlap;
   - the page does not scroll sideways and no card overflows;
   - each chart shows, in its own part of the screenshot, the colour of every series its
     `data-series` names (groups separated by spaces, alternatives by `|`): an empty chart fails;
   - the page's background is light in light mode and dark in dark mode; the heatmap's empty
     cells are drawn in the scheme's own colour (never near-white in the dark), and its lowest
     class of focus share stands out from the card and from empty cells in both schemes.
   - the day timeline (where the all-day watch ran): every span inside its lane, the hour labels
     inside the timeline and apart, and the colours of the work, distracting and episode spans
     it has in its part of the screenshot.
The renderer's layout and these checks are independent: the checks read only the HTML and the
browser. Prints each failure; exits 1 if there was one. The last line says what was checked.
"""
import html
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

from PIL import Image

CHROMIUM = "/usr/bin/chromium"
RENDERINGS = [("light", 1280), ("dark", 1280), ("light", 390), ("dark", 390)]
REQUIRED = ["hours-focus", "hours-distraction", "hours-time", "heatmap", "daily", "weekly", "profile", "tasks", "causes", "streak"]
# Pixels of a series' colour a chart must show. A single 10 x 10 px block; a chart that draws its
# data at all shows thousands.
MIN_PIXELS = 100
SVG_NS = "{http://www.w3.org/2000/svg}"

failures = []


def fail(message):
    failures.append(message)
    print("FAIL", message)


def static_checks(source):
    """Returns the ids of the charts, after checking their XML, tooltips and label extents."""
    ids = []
    for chunk in re.findall(r"<svg\b.*?</svg>", source, re.S):
        try:
            svg = ET.fromstring(chunk)
        except ET.ParseError as error:
            fail(f"an SVG is not well-formed XML ({error}): {chunk[:120]}")
            continue
        chart = svg.get("id")
        if chart is None:
            continue  # a legend's swatch
        ids.append(chart)
        if svg.get("data-series") is None:
            fail(f"{chart}: no data-series")
        if sum(1 for _ in svg.iter(SVG_NS + "title")) == 0:
            fail(f"{chart}: no tooltip")
        _, _, width, height = (float(v) for v in svg.get("viewBox").split())
        root_size = float(svg.get("font-size", "16"))
        for text in svg.iter(SVG_NS + "text"):
            size = float(text.get("font-size", root_size))
            x, y = float(text.get("x")), float(text.get("y"))
            w = len(text.text or "") * size * 0.6
            anchor = text.get("text-anchor", "start")
            left = x - (w / 2 if anchor == "middle" else w if anchor == "end" else 0)
            if left < 0 or left + w > width or y - 0.8 * size < 0 or y + 0.2 * size > height:
                fail(f"{chart}: label {text.text!r} at ({x}, {y}), about {w:.0f} wide, is outside the viewBox 0 0 {width} {height}")
    return ids


PROBE = """
<script>
const frame = document.getElementById('report');
frame.addEventListener('load', () => {
  const d = frame.contentDocument, w = frame.contentWindow;
  const style = (el) => w.getComputedStyle(el);
  const out = {innerWidth: w.innerWidth, scrollWidth: d.documentElement.scrollWidth,
               height: d.documentElement.scrollHeight, overflowing: [], charts: []};
  for (const c of d.querySelectorAll('.card, .kpi'))
    if (c.scrollWidth > c.clientWidth + 1) out.overflowing.push(c.id || c.className);
  for (const svg of d.querySelectorAll('svg.chart[id]')) {
    const r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal, card = svg.closest('.card');
    const chart = {id: svg.id, rect: [r.left, r.top, r.width, r.height], series: svg.dataset.series,
                   classes: {}, card: style(card).backgroundColor, clipped: [], overlaps: []};
    for (const group of svg.dataset.series.split(' '))
      for (const cls of group.split('|')) {
        const el = svg.querySelector('.' + cls);
        chart.classes[cls] = el ? {fill: style(el).fill, opacity: style(el).fillOpacity} : null;
      }
    for (const cls of ['empty', 'h0']) {
      const el = card.querySelector('.' + cls);
      if (el) chart[cls] = style(el).fill;
    }
    const boxes = [];
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBBox();
      boxes.push([t.textContent, b]);
      if (b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 || b.y + b.height > vb.y + vb.height + 0.5)
        chart.clipped.push(`${t.textContent} [${b.x.toFixed(1)}, ${b.y.toFixed(1)}, ${b.width.toFixed(1)} x ${b.height.toFixed(1)}]`);
    }
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [s, a] = boxes[i], [t, b] = boxes[j];
        const dx = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
        const dy = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
        if (dx > 0.5 && dy > 2) chart.overlaps.push(`${s} / ${t}`);
      }
    out.charts.push(chart);
  }
  out.timelines = [];
  for (const tl of d.querySelectorAll('.timeline')) {
    const r = tl.getBoundingClientRect();
    const found = {rect: [r.left, r.top, r.width, r.height], lanes: 0, spans: 0, outside: [], labels: [], overlaps: [], colours: {}};
    for (const track of tl.querySelectorAll('.tl-track')) {
      found.lanes++;
      const t = track.getBoundingClientRect();
      for (const span of track.querySelectorAll('i')) {
        found.spans++;
        const b = span.getBoundingClientRect();
        if (b.left < t.left - 0.5 || b.right > t.right + 0.5) found.outside.push(span.title);
        const cls = span.className;
        if (!(cls in found.colours)) found.colours[cls] = {fill: style(span).backgroundColor, opacity: style(span).opacity};
      }
    }
    const boxes = [];
    for (const label of tl.querySelectorAll('.tl-axis span')) {
      const b = label.getBoundingClientRect();
      if (!label.textContent || b.width === 0) continue;  // hidden at this width
      boxes.push([label.textContent, b]);
      if (b.left < r.left - 0.5 || b.right > r.right + 0.5) found.labels.push(label.textContent);
    }
    for (let i = 0; i + 1 < boxes.length; i++)
      if (boxes[i][1].right > boxes[i + 1][1].left + 0.5) found.overlaps.push(`${boxes[i][0]} / ${boxes[i + 1][0]}`);
    out.timelines.push(found);
  }
  document.getElementById('probe').textContent = JSON.stringify(out);
});
</script>
"""


def render(source, workdir, scheme, width, height):
    """Loads the report in an iframe `width` wide; returns the probe's findings and the screenshot."""
    name = f"{scheme}-{width}"
    wrapper = os.path.join(workdir, f"wrapper-{name}.html")
    png = os.path.join(workdir, f"shot-{name}.png")
    with open(wrapper, "w") as f:
        f.write('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">')
        f.write(f'<iframe id="report" width="{width}" height="{height}" style="border:0;display:block" srcdoc="{html.escape(source, quote=True)}"></iframe>')
        f.write('<pre id="probe"></pre>' + PROBE + "</body></html>")
    # preferredColorScheme: 0 dark, 1 light (Blink's enum); --force-dark-mode would also work.
    command = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
        f"--user-data-dir={workdir}/chromium-{name}", f"--blink-settings=preferredColorScheme={0 if scheme == 'dark' else 1}",
        f"--window-size={max(width, 500)},{height + 40}", "--dump-dom", f"--screenshot={png}", "file://" + wrapper,
    ]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True), png


def rgb(css):
    m = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, [\d.]+)?\)", css or "")
    return tuple(int(v) for v in m.groups()) if m else None


def luminance(c):
    def channel(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def browser_checks(found, png, scheme, width, chart_ids):
    where = f"{scheme} {width} px"
    if found["innerWidth"] != width:
        fail(f"{where}: the report was laid out {found['innerWidth']} px wide")
    if found["scrollWidth"] > found["innerWidth"]:
        fail(f"{where}: the page scrolls sideways ({found['scrollWidth']} px wide)")
    for card in found["overflowing"]:
        fail(f"{where}: card {card} overflows")
    image = Image.open(png).convert("RGB")
    page = image.getpixel((2, 2))
    if scheme == "light" and luminance(page) < 0.8 or scheme == "dark" and luminance(page) > 0.05:
        fail(f"{where}: the page's background {page} is not {scheme}")
    charts = {c["id"]: c for c in found["charts"]}
    if sorted(charts) != sorted(chart_ids):
        fail(f"{where}: the browser saw charts {sorted(charts)}, the HTML has {sorted(chart_ids)}")
    for chart in charts.values():
        name = f"{where}: {chart['id']}"
        for label in chart["clipped"]:
            fail(f"{name}: label cut off at the chart's edge: {label}")
        for pair in chart["overlaps"]:
            fail(f"{name}: labels overlap: {pair}")
        x, y, w, h = chart["rect"]
        if w < 50 or h < 20:
            fail(f"{name}: drawn {w:.0f} x {h:.0f} px")
            continue
        if y + h > image.height:
            fail(f"{name}: below the screenshot ({y + h:.0f} > {image.height})")
            continue
        region = image.crop((round(x), round(y), round(x + w), round(y + h)))
        counts = {colour: n for n, colour in region.getcolors(region.width * region.height)}
        for group in chart["series"].split():
            pixels = 0
            for cls in group.split("|"):
                drawn = chart["classes"].get(cls)
                if drawn is None:
                    continue
                if float(drawn["opacity"]) != 1:
                    fail(f"{name}: series {cls} is not opaque, its colour cannot be counted")
                pixels += counts.get(rgb(drawn["fill"]), 0)
            if pixels < MIN_PIXELS:
                fail(f"{name}: {pixels} px of {group} (at least {MIN_PIXELS})")
        if chart["id"] == "heatmap":
            card, empty, lowest = rgb(chart["card"]), rgb(chart.get("empty")), rgb(chart.get("h0"))
            if empty is None or lowest is None:
                fail(f"{name}: no empty cell or lowest class to check")
                continue
            if counts.get(empty, 0) < MIN_PIXELS:
                fail(f"{name}: empty cells not drawn in {empty} ({counts.get(empty, 0)} px)")
            if scheme == "dark" and luminance(empty) > 0.05:
                fail(f"{name}: empty cells glare in the dark: {empty}")
            near_white = sum(n for colour, n in counts.items() if min(colour) >= 225)
            if scheme == "dark" and near_white > 0.005 * region.width * region.height:
                fail(f"{name}: {near_white} near-white px in dark mode")
            if contrast(lowest, card) < 1.3:
                fail(f"{name}: the lowest class {lowest} hardly differs from the card {card} ({contrast(lowest, card):.2f}:1)")
            if contrast(lowest, empty) < 1.2:
                fail(f"{name}: the lowest class {lowest} hardly differs from empty cells {empty} ({contrast(lowest, empty):.2f}:1)")


# The day timeline's spans that are drawn opaque, whose colour must show in the screenshot when the
# timeline has them.
TIMELINE_OPAQUE = ["app-work", "app-distracting", "tl-episode"]


def timeline_checks(found, image, where, expected):
    timelines = found.get("timelines", [])
    if len(timelines) != expected:
        fail(f"{where}: the browser saw {len(timelines)} day timelines, the HTML has {expected}")
    for tl in timelines:
        name = f"{where}: day timeline"
        if tl["lanes"] != 4 or tl["spans"] == 0:
            fail(f"{name}: {tl['lanes']} lanes with {tl['spans']} spans")
        for title in tl["outside"][:5]:
            fail(f"{name}: a span reaches outside its lane: {title}")
        for label in tl["labels"]:
            fail(f"{name}: hour label {label} cut off at the edge")
        for pair in tl["overlaps"]:
            fail(f"{name}: hour labels overlap: {pair}")
        x, y, w, h = tl["rect"]
        if y + h > image.height or w < 100:
            fail(f"{name}: drawn at {x:.0f}, {y:.0f}, {w:.0f} x {h:.0f} px")
            continue
        region = image.crop((round(x), round(y), round(x + w), round(y + h)))
        counts = {colour: n for n, colour in region.getcolors(region.width * region.height)}
        for cls in TIMELINE_OPAQUE:
            drawn = tl["colours"].get(cls)
            if drawn is None:
                continue
            if float(drawn["opacity"]) != 1:
                fail(f"{name}: {cls} is not opaque, its colour cannot be counted")
            pixels = counts.get(rgb(drawn["fill"]), 0)
            # A lane is 16 px high: even a few minutes of a day's 1440 show as a column of pixels.
            if pixels < 16:
                fail(f"{name}: {pixels} px of {cls} (at least 16)")


def main():
    report, workdir = sys.argv[1], sys.argv[2]
    source = open(report, encoding="utf-8").read()
    chart_ids = static_checks(source)
    timelines = source.count('<div class="timeline"')
    for chart in REQUIRED:
        if chart not in chart_ids:
            fail(f"no chart {chart}")
    heights = {1280: 3200, 390: 7600}
    pending = [(scheme, width, heights[width]) for scheme, width in RENDERINGS]
    checked = 0
    while pending:
        runs = [(scheme, width, height, *render(source, workdir, scheme, width, height)) for scheme, width, height in pending]
        pending = []
        for scheme, width, height, process, png in runs:
            dom, errors = process.communicate()
            probe = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
            if process.returncode != 0 or not probe or not probe.group(1) or not os.path.exists(png):
                fail(f"{scheme} {width} px: Chromium gave no result (status {process.returncode}): {errors[-2000:]}")
                continue
            found = json.loads(html.unescape(probe.group(1)))
            if found["height"] > height:
                pending.append((scheme, width, found["height"] + 20))  # taller than the window: again, taller
                continue
            browser_checks(found, png, scheme, width, chart_ids)
            timeline_checks(found, Image.open(png).convert("RGB"), f"{scheme} {width} px", timelines)
            checked += 1
    print(f"checked {len(chart_ids)} charts and {timelines} day timeline{'' if timelines == 1 else 's'} in {checked} renderings; {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
