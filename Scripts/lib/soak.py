"""Soak test of the interactive app, driven through a real pty.

Started by Scripts/soak, which builds the binary. Runs `flickr sandbox` with
10 % of URLs failing (REST and images), cycling through the fault kinds (the
hostile phase, `--fault hostile`, always second and at 30 %), and
the app against it; then types random actions (searches, Enter, /cancel,
/open N, /retry, window resizes, Ctrl-C) until time is up. Reports crashes,
the app's RSS at start and end, and operations still running at the end,
as the app's /stats and the sandbox's /sandbox/stats tell them.
"""
import argparse
import fcntl
import json
import os
import pty
import random
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
import urllib.request

FAULTS = ["status", "reset", "truncate", "garbage", "stall", "slow-headers", "api-error", "hostile"]
# The hostile phase answers valid-but-hostile values (huge numbers, Retry-After
# extremes, control characters in titles, images claiming 8000x8000, ...):
# more of its URLs are faulty, so a short soak meets many of its cases.
FAULT_RATES = {"hostile": "0.3"}
QUERIES = ["kittens", "sunset", "beach", "red car", "mountain lake", "night city", "dog", "zzzqqq",
           "日本 桜", "café", "-kittens sunset", "a"]
ACTIONS = [("search", 20), ("enter", 20), ("cancel", 10), ("open", 12), ("retry", 8),
           ("resize", 10), ("ctrl-c", 10), ("half-line", 5), ("stats", 5)]


class App:
    """The app in a pty whose output is drained continuously."""

    def __init__(self, argv, env, columns, rows):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(argv[0], argv, env)
        self.resize(columns, rows)
        self.output = bytearray()
        self.status = None

    def resize(self, columns, rows):
        # The kernel sends SIGWINCH to the app when the size changes.
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    def pump(self, seconds=0.0, until=None):
        """Reads output for up to `seconds`; True once `until(output)` holds."""
        deadline = time.monotonic() + seconds
        while True:
            timeout = max(0.0, min(0.05, deadline - time.monotonic()))
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if ready:
                try:
                    data = os.read(self.fd, 1 << 16)
                except OSError:
                    data = b""
                if not data:
                    self.reap(block=True)
                    return False
                self.output.extend(data)
                if len(self.output) > 4 << 20:  # keep the tail only
                    del self.output[: len(self.output) - (2 << 20)]
            if until is not None and until(self.output):
                return True
            if time.monotonic() >= deadline:
                return until is None

    def type(self, text):
        data = text.encode()
        while data:
            _, writable, _ = select.select([], [self.fd], [], 1.0)
            if writable:
                data = data[os.write(self.fd, data[:4096]):]
            self.pump()

    def reap(self, block=False):
        if self.status is None:
            pid, status = os.waitpid(self.pid, 0 if block else os.WNOHANG)
            if pid:
                self.status = status
        return self.status

    def alive(self):
        return self.reap() is None

    def rss_kb(self):
        try:
            with open(f"/proc/{self.pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def rss_parts(self):
        """RSS split into anonymous memory (heap, stacks) and mapped files (code), in KB."""
        parts = {}
        try:
            with open(f"/proc/{self.pid}/status") as status:
                for line in status:
                    if line.startswith(("RssAnon:", "RssFile:")):
                        parts[line.split(":")[0]] = int(line.split()[1])
        except OSError:
            pass
        return parts


class Sandbox:
    def __init__(self, binary, workdir):
        self.binary = binary
        self.workdir = workdir
        self.process = None
        self.port = 0
        self.url = None

    def start(self, fault, seed):
        arguments = [self.binary, "sandbox", "--port", str(self.port), "--latency", "20",
                     "--fault-rate", FAULT_RATES.get(fault, "0.1"), "--fault", fault, "--fault-scope", "all",
                     "--fault-seed", str(seed), "--slow-headers-delay", "3"]
        log = open(os.path.join(self.workdir, "sandbox.log"), "ab")
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=log)
        line = self.process.stdout.readline().decode()
        match = re.match(r"listening on (http://[^\s]+)", line)
        if not match:
            raise SystemExit(f"soak: the sandbox did not start: {line!r}")
        self.url = match.group(1)
        self.port = int(self.url.rsplit(":", 1)[1])

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def stats(self):
        with urllib.request.urlopen(self.url + "/sandbox/stats", timeout=10) as answer:
            return json.load(answer)


def crashed_in(output):
    return re.findall(rb"Fatal error[^\r\n]*|Program crashed[^\r\n]*|Segmentation fault|ERROR: AddressSanitizer", output)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--minutes", type=float, required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    workdir = tempfile.mkdtemp(prefix="flickr-soak.")
    sandbox = Sandbox(arguments.binary, workdir)
    try:
        return soak(arguments, rng, workdir, sandbox)
    finally:
        sandbox.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def soak(arguments, rng, workdir, sandbox):
    segment = max(20.0, arguments.minutes * 60 / len(FAULTS))
    faults = FAULTS[:]
    rng.shuffle(faults)
    # Second, so even a one-minute soak (three segments) has a hostile phase;
    # not first, so the app's first page comes from an ordinary fault.
    faults.remove("hostile")
    faults.insert(1, "hostile")
    sandbox.start(faults[0], arguments.seed)
    env = {"HOME": workdir, "XDG_STATE_HOME": os.path.join(workdir, "state"),
           "XDG_CACHE_HOME": os.path.join(workdir, "cache"), "TERM": "xterm-256color",
           "LANG": "C.UTF-8", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    argv = [arguments.binary, "--api-url", sandbox.url + "/services/rest/", "--api-key", "soak",
            "--images", "symbols"]
    app = App(argv, env, 120, 40)
    try:
        return drive(arguments, rng, sandbox, app, faults, segment)
    finally:
        if app.alive():
            os.kill(app.pid, signal.SIGKILL)
            app.reap(block=True)


def plateau_growth(samples, duration):
    """RSS growth over the run's last 5 minutes (its second half when shorter):
    the median of the first and of the last 30 s of that window, so one
    sample's spike decides nothing. Returns (window s, first KB, last KB, %)."""
    if len(samples) < 4:
        return None
    window = min(300.0, duration / 2)
    end = samples[-1][0]
    begin = end - window
    head = sorted(kb for t, kb in samples if begin <= t <= begin + 30)
    tail = sorted(kb for t, kb in samples if t >= end - 30)
    if not head or not tail:
        return None
    first, last = head[len(head) // 2], tail[len(tail) // 2]
    return window, first, last, (last - first) * 100.0 / first


def drive(arguments, rng, sandbox, app, faults, segment):
    # The sandbox fails a tenth of URLs from the start (the same ones each
    # time): when the first page is one, search something else, as a person would.
    for query in QUERIES[:5]:
        if app.pump(30, lambda out: b"page 1 of" in out or b"/retry loads page" in out) and b"page 1 of" in app.output:
            break
        app.output.clear()
        app.type(query + "\r")
    if b"page 1 of" not in app.output and not app.pump(30, lambda out: b"page 1 of" in out):
        print("soak: the app never showed its first page", file=sys.stderr)
        print(bytes(app.output[-2000:]).decode(errors="replace"), file=sys.stderr)
        return 1
    print(f"seed {arguments.seed}; faults in turn: {', '.join(faults)} ({segment:.0f} s each)")
    rss_start = app.rss_kb()
    rss_peak = rss_start or 0
    # (seconds since start, KB) for the plateau check.
    rss_samples = []
    counts = {name: 0 for name, _ in ACTIONS}
    restarts = 0
    start = time.monotonic()
    deadline = start + arguments.minutes * 60
    reported = 0
    names = [name for name, _ in ACTIONS]
    weights = [weight for _, weight in ACTIONS]
    while time.monotonic() < deadline and app.alive():
        number = int((time.monotonic() - start) // segment)
        if number > restarts:
            # Next fault kind: a new sandbox on the same port (open connections break too).
            sandbox.stop()
            sandbox.start(faults[number % len(faults)], arguments.seed + number)
            restarts = number
        action = rng.choices(names, weights)[0]
        counts[action] += 1
        if action == "search":
            app.type(rng.choice(QUERIES) + "\r")
        elif action == "enter":
            app.type("\r")
        elif action == "cancel":
            app.type("/cancel\r")
        elif action == "open":
            app.type(f"/open {rng.randint(1, 90)}\r")
        elif action == "retry":
            app.type("/retry\r")
        elif action == "resize":
            app.resize(rng.randint(40, 200), rng.randint(12, 60))
        elif action == "ctrl-c":
            app.type("\x03")
        elif action == "half-line":
            app.type(rng.choice(QUERIES)[: rng.randint(1, 5)])
        elif action == "stats":
            app.type("/stats\r")
        app.pump(rng.uniform(0.0, 0.4))
        rss = app.rss_kb()
        if rss:
            rss_peak = max(rss_peak, rss)
            rss_samples.append((time.monotonic() - start, rss))
            minute = int((time.monotonic() - start) // 60)
            if minute > reported:
                # Progress, and the curve the plateau check reads.
                reported = minute
                # What the app last said it holds (/stats is one of the actions).
                at = app.output.rfind(b"memory: ")
                held = bytes(app.output[at + 8:at + 300]).split(b"\r")[0].split(b"\n")[0] if at >= 0 else b""
                said = f"; {held.decode(errors='replace')}" if held else ""
                parts = app.rss_parts()
                split = f" (anon {parts.get('RssAnon', '?')}, files {parts.get('RssFile', '?')})"
                print(f"  {minute} min: RSS {rss} KB{split} after {sum(counts.values())} actions{said}", flush=True)
    crashes = 0 if app.alive() else 1
    growth = plateau_growth(rss_samples, arguments.minutes * 60)
    # Let every operation end: cancel what is pending, then ask the app.
    running = None
    if app.alive():
        app.type("\x03/cancel\r")
        for _ in range(60):
            mark = len(app.output)
            app.type("/stats\r")
            found = []
            app.pump(2, lambda out: bool(found.extend(re.findall(
                rb"downloads: (\d+) queued \xc2\xb7 (\d+) running", bytes(out[mark:])))) or bool(found))
            if found:
                queued, active = (int(value) for value in found[-1])
                running = queued + active
                if running == 0:
                    break
            time.sleep(0.5)
    rss_end = app.rss_kb()
    in_flight = None
    for _ in range(20):
        in_flight = sandbox.stats().get("in_flight")
        if in_flight == 0:
            break
        time.sleep(0.5)
    if app.alive():
        app.type("/quit\r")
        app.pump(20, lambda out: not app.alive())
        if app.alive():
            os.kill(app.pid, signal.SIGKILL)
            crashes += 1  # would not quit
    status = app.reap(block=True)
    died = os.WIFSIGNALED(status) or (os.WIFEXITED(status) and os.WEXITSTATUS(status) != 0)
    messages = crashed_in(app.output)
    if died and crashes == 0:
        crashes = 1
    crashes = max(crashes, len(messages))

    print("actions: " + ", ".join(f"{name} {count}" for name, count in counts.items()))
    print(f"crashes: {crashes}" + (f" (exit status {status}; {messages[:3]})" if crashes else ""))
    print(f"RSS: start {rss_start} KB, end {rss_end} KB, peak {rss_peak} KB")
    if growth is None:
        print("RSS plateau: not enough samples")
    else:
        window, first, last, percent = growth
        print(f"RSS plateau: over the last {window / 60:.1f} min {first} KB -> {last} KB "
              f"({percent:+.1f} %; must grow less than 10 %)")
    print(f"operations still running at the end: app {running if running is not None else 'unknown'} "
          f"(queued + running downloads), sandbox {in_flight} (responses in flight)")
    if crashes or running != 0 or in_flight != 0 or (growth is not None and growth[3] >= 10):
        print(bytes(app.output[-1500:]).decode(errors="replace"), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
