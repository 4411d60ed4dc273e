#!/usr/bin/env python3
"""Writes the `libinput record` file of the readers' benchmark (scripts/bench-readers.sh): a day.

What `libinput record --show-keycodes /dev/input/event3` (libinput 1.22) writes for an internal
keyboard over 24 hours, in its own layout (Tests/InputDetectorTests/Data/keyboard-alt-tab.yml, the
man page's FILE FORMAT): the header, the device's description, then a `- evdev:` frame per key
press, release or autorepeat (MSC_SCAN, EV_KEY, SYN_REPORT), and a `# Current time is HH:MM:SS`
comment before a frame when five seconds or more have passed since the last one. The person types
in bursts (words, Alt+Tab now and then, held keys that repeat) during the working hours, less in the
evening, not at night. About 170 MB. Deterministic: Python's Mersenne Twister with seed 18.

Usage: scripts/bench-libinput-data.py OUT [HOURS] [--no-wall-clock]
    --no-wall-clock: without the comments, as libinput before 1.20 wrote it
"""
import random
import sys

KEYS = {  # code: name, scancode (the PS/2 set-1 codes in MSC_SCAN, as an AT keyboard sends them)
    16: ("KEY_Q", 0x10), 17: ("KEY_W", 0x11), 18: ("KEY_E", 0x12), 19: ("KEY_R", 0x13), 20: ("KEY_T", 0x14),
    21: ("KEY_Y", 0x15), 22: ("KEY_U", 0x16), 23: ("KEY_I", 0x17), 24: ("KEY_O", 0x18), 25: ("KEY_P", 0x19),
    30: ("KEY_A", 0x1E), 31: ("KEY_S", 0x1F), 32: ("KEY_D", 0x20), 33: ("KEY_F", 0x21), 34: ("KEY_G", 0x22),
    35: ("KEY_H", 0x23), 36: ("KEY_J", 0x24), 37: ("KEY_K", 0x25), 38: ("KEY_L", 0x26), 44: ("KEY_Z", 0x2C),
    45: ("KEY_X", 0x2D), 46: ("KEY_C", 0x2E), 47: ("KEY_V", 0x2F), 48: ("KEY_B", 0x30), 49: ("KEY_N", 0x31),
    50: ("KEY_M", 0x32), 57: ("KEY_SPACE", 0x39), 28: ("KEY_ENTER", 0x1C), 14: ("KEY_BACKSPACE", 0x0E),
    15: ("KEY_TAB", 0x0F), 56: ("KEY_LEFTALT", 0x38), 42: ("KEY_LEFTSHIFT", 0x2A),
}
LETTERS = [c for c in KEYS if c not in (15, 56, 42, 28, 14)]

HEADER = """# libinput record
version: 1
ndevices: 1
libinput:
  version: "1.22.1"
  git: "unknown"
system:
  os: "debian:12"
  kernel: "6.1.0-18-amd64"
  dmi: "dmi:bvnLENOVO:bvrN2HET77W(1.60):svnLENOVO:pn20QD:pvrThinkPadX1Carbon7th:"
devices:
- node: /dev/input/event3
  evdev:
    # Name: AT Translated Set 2 keyboard
    # ID: bus 0x0011 vendor 0x0001 product 0x0001 version 0xab54
    # Supported Events:
    # Event type 0 (EV_SYN)
    # Event type 1 (EV_KEY)
    # Event type 4 (EV_MSC)
    #   Event code 4 (MSC_SCAN)
    # Event type 17 (EV_LED)
    # Properties:
    name: "AT Translated Set 2 keyboard"
    id: [17, 1, 1, 43860]
    codes:
      0: [0, 1, 4, 17, 20] # EV_SYN
      1: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 97, 100, 103, 104, 105, 106, 108, 109, 125, 126] # EV_KEY
      4: [4] # EV_MSC
      17: [0, 1, 2] # EV_LED
    properties: []
  hid: []
  udev:
    properties:
    - ID_INPUT=1
    - ID_INPUT_KEY=1
    - ID_INPUT_KEYBOARD=1
    - LIBINPUT_DEVICE_GROUP=11/1/1:isa0060/serio0
  quirks:
  - AttrKeyboardIntegration=internal
  libinput:
    capabilities: [keyboard]
  events:
"""


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    wall_clock = "--no-wall-clock" not in sys.argv
    out, hours = args[0], float(args[1]) if len(args) > 1 else 24.0
    rng = random.Random(18)
    start_of_day = 8 * 3600 + 30 * 60  # the recording starts at 08:30:00 local time
    end = hours * 3600
    t = 0.0
    last_comment = None
    with open(out, "w") as f:
        f.write(HEADER)

        def frame(time, code, value):
            nonlocal last_comment
            sec, usec = int(time), int(round((time - int(time)) * 1e6))
            if usec == 1_000_000:
                sec, usec = sec + 1, 0
            if wall_clock and (last_comment is None or sec - last_comment >= 5):
                clock = (start_of_day + sec) % 86400
                f.write(f"  # Current time is {clock // 3600:02d}:{clock // 60 % 60:02d}:{clock % 60:02d}\n")
                last_comment = sec
            name, scan = KEYS[code]
            scan |= 0x700000
            f.write("  - evdev:\n")
            if value != 2:
                f.write(f"    - [{sec:3d}, {usec:6d},   4,   4, {scan:7d}] # EV_MSC / MSC_SCAN        {scan:7d}\n")
            f.write(f"    - [{sec:3d}, {usec:6d},   1, {code:3d}, {value:7d}] # EV_KEY / {name:<21} {value:6d}\n")
            f.write(f"    - [{sec:3d}, {usec:6d},   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +{rng.randint(0, 90)}ms\n")

        def tap(code, hold):
            nonlocal t
            frame(t, code, 1)
            if hold > 0.5:  # held into autorepeat: 33 repeats a second after 0.5 s
                r = t + 0.5
                while r < t + hold:
                    frame(r, code, 2)
                    r += 0.03
            t += hold
            frame(t, code, 0)

        while t < end:
            hour = (start_of_day + t) / 3600 % 24
            busy = 1.0 if 9 <= hour < 12.5 or 13.5 <= hour < 18 else 0.8 if 7 <= hour < 24 else 0.3
            if rng.random() > busy:  # a pause: reading, a meeting, the night
                t += rng.expovariate(1 / 6)
                continue
            # A burst of typing: words with spaces, a correction, sometimes a held key or Alt+Tab.
            for _ in range(rng.randint(20, 300)):
                r = rng.random()
                if r < 0.004:
                    frame(t, 56, 1)
                    t += rng.uniform(0.08, 0.2)
                    for _ in range(rng.randint(1, 3)):
                        tap(15, rng.uniform(0.05, 0.1))
                        t += rng.uniform(0.15, 0.3)
                    frame(t, 56, 0)
                elif r < 0.01:
                    tap(rng.choice(LETTERS), rng.uniform(0.6, 1.5))
                elif r < 0.03:
                    tap(14, rng.uniform(0.05, 0.1))
                elif r < 0.18:
                    tap(57, rng.uniform(0.05, 0.1))
                else:
                    tap(rng.choice(LETTERS), rng.uniform(0.04, 0.12))
                t += rng.uniform(0.07, 0.24)
                if t >= end:
                    break
            t += rng.uniform(0.3, 1.5)


if __name__ == "__main__":
    main()
