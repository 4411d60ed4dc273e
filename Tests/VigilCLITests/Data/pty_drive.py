#!/usr/bin/env python3
"""Drives a program in a real pseudo-terminal, as a person at a keyboard would.

Usage: pty_drive.py COLS ROWS CAPTURE STEPS_JSON -- COMMAND...

STEPS_JSON is a list of steps, each {"wait": REGEX, "send": TEXT, "timeout": SECONDS}: wait until
REGEX matches what the program has written since the previous step (escape sequences removed),
then type TEXT (may be empty; "\\u0003" is Ctrl-C). After the last step, waits for the program to
exit. Everything the program wrote goes to CAPTURE. Exits with the program's status, or 124 if a
step timed out (CAPTURE then ends with the step that failed).
"""
import fcntl, json, os, pty, re, select, struct, sys, termios, time

cols, rows, capture, steps_json = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
command = sys.argv[sys.argv.index("--") + 1:]
steps = json.loads(steps_json)
ansi = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")

pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

out = bytearray()
def pump(timeout):
    r, _, _ = select.select([fd], [], [], timeout)
    if not r:
        return True
    try:
        data = os.read(fd, 65536)
    except OSError:
        return False
    if not data:
        return False
    out.extend(data)
    return True

def finish(status, note=""):
    with open(capture, "wb") as f:
        f.write(bytes(out))
        if note:
            f.write(("\n[pty_drive] " + note + "\n").encode())
    sys.exit(status)

mark = 0
for i, step in enumerate(steps):
    deadline = time.time() + step.get("timeout", 30)
    pattern = re.compile(step["wait"])
    while True:
        text = ansi.sub("", bytes(out[mark:]).decode("utf-8", "replace"))
        if pattern.search(text):
            break
        if time.time() > deadline:
            os.kill(pid, 9)
            finish(124, f"step {i}: no /{step['wait']}/ within {step.get('timeout', 30)} s")
        if not pump(0.05):
            finish(125, f"step {i}: the program ended before /{step['wait']}/")
    mark = len(out)
    if step.get("send"):
        os.write(fd, step["send"].encode())

deadline = time.time() + 60
while time.time() < deadline:
    if not pump(0.05):
        break
_, status = os.waitpid(pid, 0)
finish(os.waitstatus_to_exitcode(status))
