"""A page camera's pacing on a fake clock (HecateCameraBrowserTests): js/camera.js's PageCamera, the page's own code, with
Chromium's fake camera, a stand-in studio that records what it is given, and core_browser.py's FakeClock, which this
script moves by hand. In the clock's own time:

- a frame every 1000/30 ms from the start: each tick whose frame is encoded sends it (kind 0x20, the next sequence
  number, at most 320x240), and nothing between ticks;
- a tick while the previous frame is still being encoded sends nothing and counts nothing; a socket backed up past its
  limit, or a lost connection, skips the tick's frame and counts it;
- pings at the start and every 150 ms four times more, then every 2 s, each stamped with the page's clock; a frame's
  `sentAt` is the page's clock plus the offset of the pong with the shortest round trip (0 before any);
- Stop camera sends one empty frame (the server ends the face at once), then no frame and no ping.

Usage: camera_pacing.py URL (any studio page: the check builds its own camera)"""
import sys

from core_browser import FAKE_CLOCK, studio_browser, console_errors, by_testid, wait_for, fail

url = sys.argv[1]
START = 50000.0
TICKS = 10
AHEAD = 1_000_000.0   # the stand-in server's clock, ms ahead of the page's

CHECK = FAKE_CLOCK + """
const [START, TICKS, AHEAD, done] = arguments;
(async () => {
  const { PageCamera, MAX_FPS, MAX_WIDTH, MAX_HEIGHT } = await import("/js/camera.js");
  const fake = new FakeClock(START);
  const pings = [], frames = [], handlers = {};
  const studio = {
    connected: true, bufferedAmount: 0,
    on: (type, f) => { (handlers[type] ??= []).push(f); },
    watch() {},
    ping(t) { pings.push({ at: fake.now(), t }); return true; },
    sendBinary(buffer) {
      const v = new DataView(buffer);
      frames.push({ at: fake.now(), kind: v.getUint8(0), seq: v.getUint32(1, true), sentAt: v.getFloat64(5, true),
                    width: v.getUint16(13, true), height: v.getUint16(15, true), bytes: buffer.byteLength });
      return true;
    },
  };
  const emit = (type, m) => { for (const f of handlers[type] ?? []) f(m); };
  const els = { toggle: document.createElement("button"), status: document.createElement("p"), view: document.createElement("section"),
                canvas: document.createElement("canvas"), latency: document.createElement("p") };
  const camera = new PageCamera(studio, els, { model: "face", idle: "idle", clock: fake });
  // The encoder works in real time, apart from the fake clock: wait for it (the script's bound ends a wait that never ends).
  const settled = () => new Promise((resolve) => { const look = () => (camera.busy ? setTimeout(look, 5) : resolve()); look(); });
  const ready = () => new Promise((resolve) => { const look = () => (camera.video.videoWidth && camera.video.readyState >= 2 ? resolve() : setTimeout(look, 5)); look(); });
  await camera.start();
  if (!camera.on) { done({ error: `the camera did not start: ${els.status.textContent}` }); return; }
  await ready();
  await settled();
  // The ticks' times as the page's timer sets them: each one 1000/MAX_FPS after the one before.
  const ticks = [START];
  for (let k = 1; k <= TICKS + 8; k++) ticks.push(ticks[k - 1] + 1000 / MAX_FPS);
  const out = { maxFPS: MAX_FPS, maxWidth: MAX_WIDTH, maxHeight: MAX_HEIGHT, ticks };
  // Steady: one frame per tick, none between.
  const first = frames.length;
  for (let k = 1; k <= TICKS; k++) { fake.advanceTo(ticks[k]); await settled(); }
  fake.advanceTo(ticks[TICKS] + 10);
  await settled();
  out.steady = frames.slice(first);
  // Busy: the next tick comes while this one's frame is being encoded.
  let n = frames.length, skipped = camera.skipped;
  fake.advanceTo(ticks[TICKS + 1]);
  const busyAfterTick = camera.busy;
  fake.advanceTo(ticks[TICKS + 2]);
  await settled();
  out.busy = { busyAfterTick, frames: frames.length - n, skipped: camera.skipped - skipped };
  // Backed up, then disconnected: skipped and counted.
  n = frames.length; skipped = camera.skipped;
  studio.bufferedAmount = 300 * 1024;
  fake.advanceTo(ticks[TICKS + 3]);
  await settled();
  studio.bufferedAmount = 0;
  studio.connected = false;
  fake.advanceTo(ticks[TICKS + 4]);
  await settled();
  studio.connected = true;
  out.skipping = { frames: frames.length - n, skipped: camera.skipped - skipped };
  // Pongs: round trips of 40, 10 and 20 ms, answered now; the shortest gives the offset.
  n = frames.length;
  const now = fake.now();
  const pongs = [[40, 30], [10, 2], [20, 15]].map(([rtt, up]) => ({ type: "pong", t: now - rtt, server: now - rtt + up + AHEAD }));
  for (const pong of pongs) emit("pong", pong);
  fake.advanceTo(ticks[TICKS + 5]);
  await settled();
  out.synced = { frames: frames.slice(n), now, pongs };
  // Pings over 5 s of the camera being on.
  fake.advanceTo(START + 5000);
  await settled();
  out.pings = pings.slice();
  // Stop: one empty frame, then nothing.
  n = frames.length;
  const pinged = pings.length;
  camera.stop();
  fake.advanceTo(START + 9000);
  await new Promise((resolve) => setTimeout(resolve, 100));
  out.stopped = { frames: frames.slice(n), pings: pings.length - pinged, pending: fake.pending() };
  done(out);
})().catch((error) => done({ error: String(error) }));
"""


with studio_browser(extra_flags=["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]) as driver:
    driver.get(url)
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection")
    got = driver.execute_async_script(CHECK, START, TICKS, AHEAD)
    if not got or got.get("error"):
        fail(f"the pacing check: {got}")
    ticks, problems = got["ticks"], []
    # Steady.
    steady = got["steady"]
    times = [f["at"] for f in steady]
    if times != ticks[1:TICKS + 1]:
        problems.append(f"frames sent at {times}, the ticks are {ticks[1:TICKS + 1]}")
    seqs = [f["seq"] for f in steady]
    if not seqs or seqs != list(range(seqs[0], seqs[0] + len(seqs))):
        problems.append(f"sequence numbers {seqs}")
    for f in steady:
        if f["kind"] != 0x20 or not (0 < f["width"] <= got["maxWidth"] and 0 < f["height"] <= got["maxHeight"]) or f["bytes"] <= 17:
            problems.append(f"a frame {f}: kind 0x20, at most {got['maxWidth']}x{got['maxHeight']}, with a JPEG")
            break
        if f["sentAt"] != 0:
            problems.append(f"a frame before any pong stamped {f['sentAt']} (0 expected)")
            break
    # Busy, backed up, disconnected.
    if got["busy"] != {"busyAfterTick": True, "frames": 1, "skipped": 0}:
        problems.append(f"a tick during an encoding: {got['busy']} (one frame for the two ticks, nothing counted)")
    if got["skipping"] != {"frames": 0, "skipped": 2}:
        problems.append(f"a backed-up socket and a lost connection: {got['skipping']} (no frame, two skipped)")
    # The server's clock from the pong with the shortest round trip (10 ms: its offset is AHEAD + 2 − 5), computed as
    # the protocol says, in the same double arithmetic as the page: server − (t + rtt / 2), rtt = now − t.
    synced, now = got["synced"]["frames"], got["synced"]["now"]
    best = min(got["synced"]["pongs"], key=lambda p: now - p["t"])
    offset = best["server"] - (best["t"] + (now - best["t"]) / 2)
    stamp = ticks[TICKS + 5] + offset
    if abs(offset - (AHEAD - 3)) > 1e-6 or len(synced) != 1 or synced[0]["at"] != ticks[TICKS + 5] or synced[0]["sentAt"] != stamp:
        problems.append(f"after the pongs: {synced}, expected one frame at {ticks[TICKS + 5]} stamped {stamp}")
    # Pings.
    wanted = [START + 150 * i for i in range(5)] + [START + 2000 * k for k in (1, 2)]
    pings = sorted(got["pings"], key=lambda p: p["at"])
    if [p["at"] for p in pings] != sorted(wanted) or any(p["t"] != p["at"] for p in pings):
        problems.append(f"pings {pings}, expected at {sorted(wanted)} stamped with the page's clock")
    # Stop.
    stopped = got["stopped"]
    if len(stopped["frames"]) != 1 or stopped["frames"][0]["bytes"] != 17 or stopped["pings"] != 0 or stopped["pending"]:
        problems.append(f"after Stop: {stopped} (one empty frame, no ping, no timer)")
    errors = [e for e in console_errors(driver) if "favicon" not in e]
    if errors:
        problems.append(f"console errors: {errors}")
    if problems:
        fail("; ".join(problems))
    shown_times = ", ".join(f"{t - START:.3f}" for t in times)
    shown_pings = ", ".join(f"{p['at'] - START:.0f}" for p in pings)
    print(f"camera pacing: {len(steady)} frames at {shown_times} ms after the start; pings at {shown_pings} ms", flush=True)
print("ok")
