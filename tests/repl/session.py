"""Replays a futhorc repl session through a pseudo-terminal, as a person
types it, and compares what the repl prints with the transcript.

    python3 session.py FUTHORC TRANSCRIPT

The transcript's lines "[N]> input" are typed (after the repl has shown
the prompt "[N]> "); the lines after one, up to the next prompt, are what
the repl must print for it (stdout and stderr, both on the terminal).
Prints "PASS input" or "FAIL input: ..." per input and exits 1 if any
failed.
"""

import os
import pty
import re
import select
import sys
import time

FUTHORC, TRANSCRIPT = sys.argv[1], sys.argv[2]
PROMPT = re.compile(rb"\[(\d+)\]> ")
TIMEOUT_S = 60


def read_until_prompt(fd, n):
    """Reads from the terminal until the prompt [n]> appears; returns what
    came before it."""
    out = b""
    deadline = time.time() + TIMEOUT_S
    want = b"[%d]> " % n
    while want not in out:
        left = deadline - time.time()
        if left <= 0:
            raise TimeoutError("no prompt %r; got %r" % (want, out))
        r, _, _ = select.select([fd], [], [], left)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                raise EOFError("the repl ended; got %r" % out)
            out += chunk
    return out[: out.index(want)]


def main():
    steps = []  # (input, expected output lines)
    for line in open(TRANSCRIPT).read().splitlines():
        m = re.match(r"\[(\d+)\]> (.*)$", line)
        if m:
            steps.append((int(m.group(1)), m.group(2), []))
        elif steps:
            steps[-1][2].append(line)
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(FUTHORC, [FUTHORC, "repl"])
    failed = 0
    read_until_prompt(fd, 0)
    for i, (n, text, want) in enumerate(steps):
        os.write(fd, text.encode() + b"\n")
        got = read_until_prompt(fd, n + 1).decode(errors="replace").replace("\r", "")
        lines = got.split("\n")
        if lines and lines[0] == text:  # the terminal's echo of the input
            lines = lines[1:]
        lines = [l for l in lines if l != ""]
        if lines == want:
            print("PASS " + text)
        else:
            failed += 1
            print("FAIL %s: got %r, want %r" % (text, lines, want))
    os.write(fd, b":quit\n")
    os.waitpid(pid, 0)
    sys.exit(1 if failed else 0)


main()
