#!/usr/bin/env python3
"""Runs a command in a pseudo-terminal and types into it as a person would: each key only once the
text it answers has appeared on the screen, so nothing depends on how fast the command runs.

Usage: pty_drive.py [--size ROWSxCOLS] [--wait SECONDS] TEXT KEY [TEXT KEY ...] -- COMMAND [ARG ...]

For each pair, waits (at most --wait seconds, 120 by default) until TEXT has been written to the
terminal since the previous key, then writes KEY (\\r for Enter). Then reads until the command
exits. Prints everything the command wrote, and exits with the command's status (or 124 when a
TEXT never came: the output so far is printed, with the text waited for).
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time


def main():
    args = sys.argv[1:]
    rows, cols, wait = 50, 160, 120.0
    while args and args[0].startswith("--") and args[0] != "--":
        option = args.pop(0)
        if option == "--size":
            rows, cols = (int(v) for v in args.pop(0).split("x"))
        elif option == "--wait":
            wait = float(args.pop(0))
    split = args.index("--")
    pairs, command = args[:split], args[split + 1:]
    steps = [(pairs[i], pairs[i + 1].encode().decode("unicode_escape")) for i in range(0, len(pairs), 2)]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    seen = b""
    since = 0
    done = False

    def read(timeout):
        nonlocal seen, done
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            done = True
        seen += chunk

    for text, key in steps:
        deadline = time.monotonic() + wait
        while text.encode() not in seen[since:]:
            if done or time.monotonic() > deadline:
                sys.stdout.write(seen.decode(errors="replace"))
                sys.stdout.write(f"\n[pty_drive: never saw {text!r}]\n")
                os.kill(pid, 9)
                sys.exit(124)
            read(0.2)
        since = len(seen)
        os.write(fd, key.encode())
    while not done:
        read(1.0)
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(seen.decode(errors="replace"))
    sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))


main()
