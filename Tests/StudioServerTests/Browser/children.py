"""Child processes of a browser script (a dummy jackd, the studio, JACK's example clients), each stopped by its
process id, and the dummy JACK server they share."""

import os
import shutil
import signal
import subprocess
import threading
import time

from core_browser import fail


class Reader(threading.Thread):
    """Collects a child's output lines without blocking."""

    def __init__(self, process):
        super().__init__(daemon=True)
        self.process, self.lines = process, []
        self.start()

    def run(self):
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def text(self):
        return "\n".join(self.lines)


def stop(p, sig=signal.SIGTERM):
    """Stops one child by its pid: `sig`, then SIGKILL after 10 s."""
    if p.poll() is None:
        p.send_signal(sig)
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


class Children:
    """The children started with `env`; `stop_all` ends them, the JACK server last."""

    def __init__(self, env, server):
        self.env, self.server, self.processes, self.jackd = env, server, [], None

    def start(self, arguments, **kw):
        if shutil.which("setpriv"):
            # The child gets SIGTERM if this script dies, so a killed run leaves no jackd holding a registry slot.
            arguments = ["setpriv", "--pdeathsig", "TERM"] + arguments
        p = subprocess.Popen(arguments, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
        self.processes.append(p)
        return p

    def start_jackd(self):
        """`jackd -d dummy` (48 kHz, 256 frames) named `server`, once `jack_lsp` reaches it."""
        self.jackd = self.start(["jackd", "--no-realtime", "-n", self.server, "-d", "dummy", "-r", "48000", "-p", "256"])
        out = Reader(self.jackd)
        for _ in range(100):
            if self.jackd.poll() is not None:
                fail(f"jackd exited: {out.text()}")
            if subprocess.run(["jack_lsp"], env=self.env, capture_output=True, text=True).returncode == 0:
                return self.jackd
            time.sleep(0.1)
        return self.jackd

    def stop_all(self, first=None):
        """Stops `first` with SIGINT (the studio: its clean stop), the others with SIGTERM, jackd last."""
        if first is not None:
            stop(first, signal.SIGINT)
        for p in reversed(self.processes):
            if p is not self.jackd:
                stop(p)
        if self.jackd is not None:
            stop(self.jackd)
            # A jackd that did not exit cleanly leaves its entry in JACK's registry (8 per machine); only a server
            # of the same name reclaims it, so start and stop one (as JACKTestServer.reclaimRegistrySlot does).
            if os.path.exists(f"/dev/shm/jack_{self.server}_0_0"):
                again = self.start(["jackd", "--no-realtime", "-n", self.server, "-d", "dummy", "-r", "48000", "-p", "256"])
                time.sleep(1.5)
                stop(again)
