"""Progress: one redrawn line on a terminal, plain lines (rate-limited) otherwise."""
import contextlib
import sys
import threading
import time


class Progress:
    def __init__(self, what, stream=None, every=10.0):
        self.what, self.s = what, stream or sys.stderr
        self.tty = self.s.isatty()
        self.every = every
        self.last = 0.0
        self.t0 = time.monotonic()

    def update(self, msg, frac=None, force=False):
        now = time.monotonic()
        if self.tty:
            if now - self.last < 0.1 and not force:
                return
            pct = f" {frac * 100:5.1f}%" if frac is not None else ""
            self.s.write(f"\r\x1b[K{self.what}:{pct} {msg}"[:200])
        else:
            if now - self.last < self.every and not force:
                return
            self.s.write(f"{self.what}: {msg}\n")
        self.s.flush()
        self.last = now

    def done(self, msg):
        if self.tty:
            self.s.write("\r\x1b[K")
        if msg == "failed":  # the error line that follows says why
            self.s.flush()
            return
        self.s.write(f"{self.what}: {msg}\n")
        self.s.flush()


SLOW_STEP_S = 1.0  # a step that runs longer than this says what it is doing (0: every step does)


@contextlib.contextmanager
def slow_step(what, prefix="report", stream=None):
    """Prints "<prefix>: <what>" (to stderr) once the step has run SLOW_STEP_S,
    so a long wait is explained and a short one stays quiet."""
    s = stream or sys.stderr

    def say():
        s.write(f"{prefix}: {what}\n")
        s.flush()
    if SLOW_STEP_S <= 0:
        say()
        yield
        return
    t = threading.Timer(SLOW_STEP_S, say)
    t.daemon = True
    t.start()
    try:
        yield
    finally:
        t.cancel()
