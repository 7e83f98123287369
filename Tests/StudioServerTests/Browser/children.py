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


def stop(p, sig=signal.SIGINT):
    """Stops one child by its pid: `sig`, then SIGKILL after 10 s.

    SIGINT by default: jackd2's example clients (jack_midi_dump, jack_midiseq) close their JACK client on SIGINT but
    die on SIGTERM, and a client that dies without closing stalls the synchronous server for ten times its client
    timeout."""
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
        self.readers, self.names = {}, {}

    def start(self, arguments, **kw):
        """Starts a child; its output is collected by ``reader(p)``."""
        name = os.path.basename(arguments[0])
        if shutil.which("setpriv"):
            # The child gets SIGTERM if this script dies, so a killed run leaves no jackd holding a registry slot.
            arguments = ["setpriv", "--pdeathsig", "TERM"] + arguments
        p = subprocess.Popen(arguments, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
        self.processes.append(p)
        self.readers[p.pid], self.names[p.pid] = Reader(p), name
        return p

    def reader(self, p):
        return self.readers[p.pid]

    def report(self, lines=25):
        """Each child's last output lines (after `stop_all`, so a stopping child's summary is there too): what a
        failed run prints for whoever reads the test log."""
        for p in self.processes:
            reader = self.readers[p.pid]
            reader.join(timeout=2)
            tail = reader.lines[-lines:]
            print(f"--- {self.names[p.pid]} (pid {p.pid}, exit {p.poll()}), its last {len(tail)} lines:", flush=True)
            for line in tail:
                print(f"    {line}", flush=True)

    def start_jackd(self):
        """`jackd -d dummy` (48 kHz, 256 frames) named `server`, once `jack_lsp` reaches it.

        Synchronous (-S), with a 2 s client timeout: the server waits for every client to finish its period, so on a
        loaded machine a late test client (jack_midi_dump, not real-time here) delays the cycle instead of missing
        the MIDI of a period it did not run (JACK's asynchronous mode skips a client that is not finished in time)."""
        self.jackd = self.start(["jackd", "--no-realtime", "-S", "-t", "2000", "-n", self.server, "-d", "dummy", "-r", "48000", "-p", "256"])
        out = self.reader(self.jackd)
        for _ in range(100):
            if self.jackd.poll() is not None:
                fail(f"jackd exited: {out.text()}")
            if subprocess.run(["jack_lsp"], env=self.env, capture_output=True, text=True).returncode == 0:
                return self.jackd
            time.sleep(0.1)
        return self.jackd

    def stop_all(self, first=None):
        """Stops `first` (the studio), then the others, jackd last, each with SIGINT (their clean stop)."""
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
