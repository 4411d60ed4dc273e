#!/usr/bin/env python3
"""Makes docs/images/report-{light,dark,phone}.png and day-{light,dark}.png: the HTML report, and
its day timeline alone, in headless Chromium.

The report covers the last 30 days of a simulated person's 120, with the day around the sessions
as the all-day watch records it (the same history every time: seed 7, Europe/Berlin, --watch). Desktop shots are 1280 px wide, the whole page; the phone shot is 390 px
wide at twice the pixel density, its first screens. Headless windows are at least 500 px wide,
so the report is loaded into an iframe of the width wanted, as the browser test does
(Tests/VigilCLITests/Data/check_html_report.py). Colours are reduced to a 256-colour palette and
optipng squeezes the files when it is installed, to keep them small in the repository.

Needs chromium and python3-pil (scripts/setup.sh --tests), and a built vigil.
Usage: scripts/report-screenshots.py [VIGIL]     (default .build/debug/vigil)
"""
import html
import os
import shutil
import subprocess
import sys
import tempfile

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = "/usr/bin/chromium"


def shoot(report, out, workdir, width, height, scheme, scale=1, crop=None):
    """Screenshots `report` in an iframe `width` CSS px wide; trims the page's empty foot."""
    source = open(report, encoding="utf-8").read()
    wrapper = os.path.join(workdir, f"wrapper-{scheme}-{width}.html")
    with open(wrapper, "w") as f:
        f.write('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">')
        f.write(f'<iframe width="{width}" height="{height}" style="border:0;display:block" srcdoc="{html.escape(source, quote=True)}"></iframe>')
        f.write("</body></html>")
    png = os.path.join(workdir, f"shot-{scheme}-{width}.png")
    subprocess.run(
        [
            CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--force-device-scale-factor={scale}",
            f"--user-data-dir={workdir}/chromium-{scheme}-{width}", f"--blink-settings=preferredColorScheme={0 if scheme == 'dark' else 1}",
            f"--window-size={max(width, 500)},{height}", f"--screenshot={png}", "file://" + wrapper,
        ],
        check=True, capture_output=True)
    image = Image.open(png).convert("RGB").crop((0, 0, width * scale, height * scale))
    background = image.getpixel((1, 1))
    bottom = image.height
    rows = image.load()
    while bottom > 1 and all(rows[x, bottom - 1] == background for x in range(0, image.width, 3)):
        bottom -= 1
    image = image.crop((0, 0, image.width, min(image.height, bottom + 8 * scale)))
    if crop:
        image = image.crop((0, 0, image.width, min(image.height, crop * scale)))
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(out, optimize=True)
    if shutil.which("optipng"):
        subprocess.run(["optipng", "-quiet", "-o5", out], check=True)
    print(f"{os.path.relpath(out, ROOT)}: {image.width} x {image.height}, {os.path.getsize(out) // 1024} KB")


CARD_PROBE = """
<script>
const frame = document.getElementById('report');
frame.addEventListener('load', () => {
  const card = frame.contentDocument.getElementById('%s');
  const r = card ? card.getBoundingClientRect() : null;
  document.getElementById('probe').textContent = r ? [r.left, r.top, r.width, r.height].join(' ') : '';
});
</script>
"""


def shoot_card(report, out, workdir, width, scheme, card):
    """Screenshots one card of the report (`card`: its id), at twice the pixel density."""
    source = open(report, encoding="utf-8").read()
    wrapper = os.path.join(workdir, f"card-{scheme}-{width}.html")
    with open(wrapper, "w") as f:
        f.write('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">')
        f.write(f'<iframe id="report" width="{width}" height="7000" style="border:0;display:block" srcdoc="{html.escape(source, quote=True)}"></iframe>')
        f.write('<pre id="probe"></pre>' + CARD_PROBE % card + "</body></html>")
    png = os.path.join(workdir, f"card-{scheme}-{width}.png")
    dom = subprocess.run(
        [
            CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=2",
            f"--user-data-dir={workdir}/chromium-card-{scheme}", f"--blink-settings=preferredColorScheme={0 if scheme == 'dark' else 1}",
            f"--window-size={width},7040", "--dump-dom", f"--screenshot={png}", "file://" + wrapper,
        ],
        check=True, capture_output=True, text=True).stdout
    found = dom.split('<pre id="probe">', 1)[1].split("</pre>", 1)[0].split()
    if len(found) != 4:
        sys.exit(f"report-screenshots: no card {card} in the report")
    x, y, w, h = (float(v) * 2 for v in found)
    margin = 16
    image = Image.open(png).convert("RGB").crop((max(0, round(x - margin)), max(0, round(y - margin)), round(x + w + margin), round(y + h + margin)))
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(out, optimize=True)
    if shutil.which("optipng"):
        subprocess.run(["optipng", "-quiet", "-o5", out], check=True)
    print(f"{os.path.relpath(out, ROOT)}: {image.width} x {image.height}, {os.path.getsize(out) // 1024} KB")


def main():
    vigil = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/vigil")
    images = os.path.join(ROOT, "docs/images")
    os.makedirs(images, exist_ok=True)
    with tempfile.TemporaryDirectory() as workdir:
        zone = ["--time-zone", "Europe/Berlin"]
        data = ["--data-dir", os.path.join(workdir, "d")]
        subprocess.run([vigil, "simulate", *data, *zone, "--days", "120", "--until", "2026-11-10", "--seed", "7", "--watch"], check=True, capture_output=True)
        report = os.path.join(workdir, "report.html")
        subprocess.run(
            [vigil, "report", *data, *zone, "--last", "30d", "--now", "2026-11-10T18:00:00Z", "--format", "html", "-o", report], check=True)
        shoot(report, os.path.join(images, "report-light.png"), workdir, 1280, 3200, "light")
        shoot(report, os.path.join(images, "report-dark.png"), workdir, 1280, 3200, "dark")
        shoot(report, os.path.join(images, "report-phone.png"), workdir, 390, 7600, "light", scale=2, crop=1462)
        shoot_card(report, os.path.join(images, "day-light.png"), workdir, 1100, "light", "card-day")
        shoot_card(report, os.path.join(images, "day-dark.png"), workdir, 1100, "dark", "card-day")


if __name__ == "__main__":
    main()
