#!/usr/bin/env python3
"""Differential test of the native readers: two `vigil` builds on the same damaged files.

Issue 18 replaced the gpsd reader's JSONSerialization with Vigil's own scanner and made the
`libinput record` reader a stream; both must take, refuse and read every file as before. This
writes gpsd logs and libinput recordings with random damage (values changed, tokens and lines added,
removed, moved or re-indented; nesting, escapes, invalid UTF-8, extra devices, wall-clock comments,
obfuscated keys), runs `vigil inspect --json` with both builds (and `replay --json` where the old
one succeeds), and prints each file on which stdout, stderr or the exit code differ.

Usage: scripts/diff-readers.py OLD_VIGIL NEW_VIGIL [ROUNDS] [SEED]     (default 500 of each, seed 1)
Deterministic for a seed; the damaged files that differ are kept (their paths are printed).
"""
import collections
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
old, new = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 500
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
tmp = tempfile.mkdtemp(prefix="vigil-diff-readers-")

GPSD = [
    '{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}',
    '{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-03-02T09:00:00.000Z","ept":0.005,"lat":52.205300001,"lon":0.121800002,'
    '"altHAE":47.123,"epx":4.5,"epy":6.25,"track":12.5,"speed":1.25,"eph":7.5}',
    '{"class":"SKY","device":"/dev/ttyACM0","time":"2026-03-02T09:00:00.000Z","hdop":1.04,"satellites":[{"PRN":5,"el":42,"az":120,"ss":38,'
    '"used":true},{"PRN":7,"el":12.5,"az":-1,"ss":0,"used":false}]}',
    '{"class":"TPV","device":"/dev/ttyACM0","mode":2,"time":"2026-03-02T09:00:01.000Z","lat":52.205400001,"lon":0.121800002,"epx":3,"epy":2}',
    '{"class":"TPV","device":"/dev/ttyACM0","mode":1,"time":"2026-03-02T09:00:02.000Z"}',
    '{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-03-02T09:00:03.5Z","lat":-33.8688,"lon":151.2093,"speed":0}',
    '$GPGGA,092750.000,5321.6802,N,00630.3372,W,1,8,1.03,61.7,M,55.2,M,,*76',
]
GPSD_TOKENS = [
    'true', 'false', 'null', '-0', '0', '1', '3', '2.5', '1e400', '1e-400', '-1', '52.20530000000000000001', '1E2', '01', '1.', '.5', '"x"',
    '"\\ud800"', '"\\udc00\\ud800"', '"\\u00e9"', '[]', '{}', '[1,]', '{"a":1,}', '[1,,2]', ',', ':', '"', '\\', '{', '}', '[', ']', ' ', '\t',
    '\r', '\x01', '\x7f', '"TPV"', '"SKY"', '"2026-03-02T09:00:04Z"', '"2026-02-30T00:00:00Z"', '1e19', '-1e19', '20037509', '20037510',
    '90', '90.000000000000001', '-180', '180.0000000000000000001', '123456789012345678901234567890', '9007199254740993', '"cl\\u0061ss"',
    '"t\\u0069me"', '"mode"', '"lat"', '"lon"', '"eph"', '"epx"', '"epy"', '"speed"', '"class"', '"time"',
]
GPSD_KEYS = ['"mode"', '"lat"', '"lon"', '"eph"', '"epx"', '"epy"', '"speed"', '"class"', '"time"', '"x"']
LIBINPUT_SNIPPETS = [
    '  # Current time is 14:30:10', '# Current time is 23:59:59', '  - evdev:', '    - [  1,      0,   1,  30,       1] # EV_KEY / KEY_A (obfuscated)',
    '    - [  1,      0,   0,   0,       0]', '    - [  2,      0,   1,  15,       1]', '    - [  2,      0,   1,  56,       1]', 'ndevices: 2',
    'ndevices: 1', 'version: 1', 'version: 2', '- node: /dev/input/event9', '  events:', '  hid:', '---', '%YAML 1.1', '',
    '    - [ 3599, 999999, 2, 0, 5]', '    - [604800, 0, 1, 30, 1]', '    - [ 10, 0, 3, 0, 100]', '    - [ 10, 0, 1, 325, 1]', '  - libinput:',
    '    codes:', '      2: [0, 1, 8]', '    - [99999, 0, 0, 0, 0]', '    - [1, 2, 3]', '\t- evdev:', '  - evdev: # x',
]


def mutate_gpsd(line):
    for _ in range(rng.randint(1, 3)):
        op = rng.randint(0, 6)
        close = line.rfind('}')
        if op == 0 and len(line) > 1:
            i = rng.randrange(len(line))
            line = line[:i] + line[i + rng.randint(1, 4):]
        elif op == 1:
            i = rng.randrange(len(line) + 1)
            line = line[:i] + rng.choice(GPSD_TOKENS) + line[i:]
        elif op == 2:
            colons = [i for i, c in enumerate(line) if c == ':']
            if colons:
                i = rng.choice(colons) + 1
                j = i
                while j < len(line) and line[j] not in ',}':
                    j += 1
                line = line[:i] + rng.choice(GPSD_TOKENS) + line[j:]
        elif op == 3 and close > 0:
            line = line[:close] + ',' + rng.choice(GPSD_KEYS) + ':' + rng.choice(GPSD_TOKENS) + line[close:]
        elif op == 4 and line.startswith('{'):
            line = '{' + rng.choice(GPSD_KEYS) + ':' + rng.choice(GPSD_TOKENS) + ',' + line[1:]
        elif op == 5 and close > 0:
            depth = rng.choice([510, 511, 512, 600])
            line = line[:close] + ',"deep":' + '[' * depth + ']' * depth + line[close:]
        elif close > 0:
            line = line[:close] + ',' + line[close:]
    return line


def gpsd_log():
    lines = list(GPSD)
    for _ in range(rng.randint(1, 2)):
        k = rng.randrange(1, len(lines))
        lines[k] = mutate_gpsd(lines[k])
    raw = [line.encode('utf-8', 'surrogatepass') for line in lines]
    if rng.random() < 0.1:  # bytes that are not UTF-8, or a NUL
        k = rng.randrange(1, len(raw))
        i = rng.randrange(len(raw[k]) + 1)
        raw[k] = raw[k][:i] + rng.choice([b'\xff', b'\xc3', b'\xed\xa0\x80', b'\x00', b'\xc3\xa9', b'\xf0\x9f\x98\x80']) + raw[k][i:]
    return b'\n'.join(raw) + b'\n'


def mutate_lines(lines, region):
    lines = list(lines)
    for _ in range(rng.randint(1, 4)):
        lo, hi = region[0], min(region[1], len(lines))
        if hi <= lo:
            break
        i = rng.randrange(lo, hi)
        op = rng.randint(0, 5)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, rng.choice(LIBINPUT_SNIPPETS))
        elif op == 2:
            lines.insert(i, lines[rng.randrange(lo, hi)])
        elif op == 3:
            parts = lines[i].split(',')
            if len(parts) > 1:
                parts[rng.randrange(len(parts))] = rng.choice([' 0', ' 1', ' -1', ' 99', ' 2147483648', ' 1000000', ' 86399', ' 15', ' 56'])
                lines[i] = ','.join(parts)
        elif op == 4:
            lines[i] = rng.choice(['', ' ', '  ', '    ']) + lines[i].lstrip(' ')
        else:
            lines[i] = lines[i] + rng.choice([' # x', ':', ' (obfuscated)', '\r'])
    return lines


data = os.path.join(ROOT, 'Tests/InputDetectorTests/Data')
small = [open(os.path.join(data, f)).read().split('\n') for f in ('keyboard-alt-tab.yml', 'mouse.yml', 'touchpad-gestures.yml')]
hour_path = os.path.join(tmp, 'hour.yml')
subprocess.run([sys.executable, os.path.join(ROOT, 'scripts/bench-libinput-data.py'), hour_path, '1'], check=True)
hour = open(hour_path).read().split('\n')
hour_without_clock = [line for line in hour if 'Current time' not in line]


def recording():
    kind = rng.random()
    if kind < 0.5:
        lines = rng.choice(small)
        return mutate_lines(lines, (0, len(lines)))
    if kind < 0.6:  # two devices
        a, b = rng.sample(small, 2)
        second = next(i for i, line in enumerate(b) if line.lstrip(' ').startswith('- node'))
        lines = [line.replace('ndevices: 1', 'ndevices: 2') for line in a] + b[second:]
        return mutate_lines(lines, (0, len(lines)))
    source = hour if rng.random() < 0.5 else hour_without_clock
    region = rng.choice([(0, 80), (len(source) - 400, len(source)), (len(source) // 2, len(source) // 2 + 50)])
    return mutate_lines(source, region)


def run(binary, args):
    r = subprocess.run([binary, *args], capture_output=True)
    return r.returncode, r.stdout, r.stderr.replace(binary.encode(), b'VIGIL')


def compare(path):
    a, b = run(old, ['inspect', '--json', path]), run(new, ['inspect', '--json', path])
    if a == b and a[0] == 0:
        a, b = run(old, ['replay', '--json', path]), run(new, ['replay', '--json', path])
    return a, b


for kind in ('gpsd', 'libinput'):
    differences = 0
    exits = collections.Counter()
    for n in range(rounds):
        path = os.path.join(tmp, f'{kind}-{n}.' + ('json' if kind == 'gpsd' else 'yml'))
        with open(path, 'wb') as f:
            f.write(gpsd_log() if kind == 'gpsd' else '\n'.join(recording()).encode())
        if kind == 'libinput':  # the start of a recording without wall-clock comments is its file time
            os.utime(path, (1_700_000_000, 1_700_000_000 + rng.randint(0, 86_400)))
        a, b = compare(path)
        exits[a[0]] += 1
        if a != b:
            differences += 1
            print(f'DIFF {path}\n  old {a[0]} {a[1][:300]!r} {a[2][:300]!r}\n  new {b[0]} {b[1][:300]!r} {b[2][:300]!r}')
        else:
            os.remove(path)
    print(f'{kind}: {rounds} files, {differences} differences (old exit codes: {dict(sorted(exits.items()))})')
