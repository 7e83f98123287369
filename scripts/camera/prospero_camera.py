"""Prospero's camera bridge: webcam, video or image -> MediaPipe face mesh or hands -> Prospero's native OSC.

Run by `prospero camera` (which finds this script and the venv made by scripts/camera-setup); the
options are the same. Faces go out as one bundle per frame of `/prospero/face/blend sf...` and
`/prospero/face/head fff` (yaw, pitch, roll degrees), and `/prospero/face/end` when the face is lost;
hands as `/prospero/hand isf+63f` (slot, left/right, confidence, 21 x y z) and `/prospero/hand/end i`.
`--json` prints the same frames as lines of Prospero's recording format on stdout (header first).
`--frames-stdin` tracks JPEG frames a program writes to stdin instead of a device, faces or hands as each
record asks, one output line per frame on stdout (the studio's page cameras; see "Frames on a pipe" below
and docs/studio-protocol.md).
`--frames-stdout` is the other way round: it reads the device (or video file) and writes its frames, downscaled
to fit 320x240 and JPEG-encoded, as length-prefixed records on stdout, at most --fps a second (the studio's
own camera, `prospero studio --camera`, which feeds them to its one tracking bridge; a video file loops, as
a camera never ends).
Exit status: 0 done, 2 bad input or a missing camera/file/package, 130/143 on SIGINT/SIGTERM.
"""

import argparse
import json
import math
import os
import signal
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import face_geometry as fg  # noqa: E402


def fail(message, status=2):
    print("prospero camera: " + message, file=sys.stderr)
    sys.exit(status)


def die_with_parent():
    """Linux: deliver SIGTERM to this process when the parent (prospero) dies, even by SIGKILL."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:
            sys.exit(143)
    except (OSError, AttributeError):
        pass


# ---- OSC 1.0 encoding (only what the bridge sends) ----

def _osc_string(s):
    b = s.encode("ascii") + b"\0"
    return b + b"\0" * (-len(b) % 4)


def osc_message(address, *args):
    tags, data = ",", b""
    for a in args:
        if isinstance(a, str):
            tags += "s"; data += _osc_string(a)
        elif isinstance(a, int):
            tags += "i"; data += struct.pack(">i", a)
        else:
            tags += "f"; data += struct.pack(">f", float(a) if math.isfinite(a) else 0.0)
    return _osc_string(address) + _osc_string(tags) + data


def osc_bundle(messages):
    out = b"#bundle\0" + struct.pack(">Q", 1)
    for m in messages:
        out += struct.pack(">i", len(m)) + m
    return out


# ---- smoothing: the One Euro filter (Casiez, Roussel, Vogel, CHI 2012) per channel ----

class OneEuro:
    def __init__(self, min_cutoff, beta, d_cutoff=1.0):
        self.min_cutoff, self.beta, self.d_cutoff = min_cutoff, beta, d_cutoff
        self.x = self.dx = self.t = None

    @staticmethod
    def _alpha(cutoff, dt):
        tau = 1.0 / (2 * math.pi * cutoff)
        return 1.0 / (1.0 + tau / dt)

    def __call__(self, x, t):
        if self.x is None or t - self.t > 0.5 or t <= self.t:  # first value or re-acquired: re-seed
            self.x, self.dx, self.t = x, 0.0, t
            return x
        dt = t - self.t
        dx = (x - self.x) / dt
        self.dx += self._alpha(self.d_cutoff, dt) * (dx - self.dx)
        cutoff = self.min_cutoff + self.beta * abs(self.dx)
        self.x += self._alpha(cutoff, dt) * (x - self.x)
        self.t = t
        return self.x


class Smoother:
    """One filter per named channel; blendshapes 0..1 and angles in degrees get their own tuning."""

    def __init__(self, min_cutoff, beta):
        self.filters, self.min_cutoff, self.beta = {}, min_cutoff, beta

    def __call__(self, name, x, t):
        f = self.filters.get(name)
        if f is None:
            f = self.filters[name] = OneEuro(self.min_cutoff, self.beta)
        return f(x, t)

    def reset(self):
        self.filters.clear()


# ---- sources ----

def open_source(args, cv2):
    if args.image:
        image = cv2.imread(args.image)
        if image is None:
            fail("cannot read image %s (missing, or not a format OpenCV reads)" % args.image)
        return ("image", image)
    target = args.video if args.video else args.device
    # A bare number is a camera index (0 = the first camera), as OpenCV counts them.
    capture = cv2.VideoCapture(int(target) if target.isdigit() else target)
    if not capture.isOpened():
        if args.video:
            fail("cannot open video %s" % args.video)
        fail("cannot open camera %s (is one connected? `ls /dev/video*`; is this user in the video group?)" % target)
    return ("capture", capture)


def frames(source, args, stop):
    """(image, capture time) pairs until the source ends or a signal arrives."""
    kind, obj = source
    if kind == "image":
        period = 1 / 30
        while not stop["now"]:
            yield obj, time.monotonic()
            if args.once:
                return
            time.sleep(period)
        return
    video_period = None
    if args.video:
        fps = obj.get(5)  # CAP_PROP_FPS
        video_period = 1 / fps if fps and fps > 0 else 1 / 30
    next_due = time.monotonic()
    while not stop["now"]:
        ok, image = obj.read()
        if not ok:
            return
        # A file's frame is stamped with its own time in the file (as a camera stamps its capture), not with
        # when a busy machine got round to reading it: the smoothing then sees the motion the file has.
        yield image, (next_due if video_period else time.monotonic())
        if video_period:  # play files at their own rate, as a camera would deliver them
            next_due += video_period
            time.sleep(max(0.0, next_due - time.monotonic()))


# ---- output ----

class Output:
    def __init__(self, args):
        self.args, self.start = args, time.monotonic()
        self.sock = None
        if not args.no_send:
            self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            self.address = (args.host, args.port)
        if args.json:
            created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            self.line({"format": "prospero-recording", "version": 1, "created": created,
                       "note": "prospero camera --%s" % ("face" if args.face else "hands")})

    def t(self, now):
        return round(now - self.start, 4)

    def line(self, obj):
        print(json.dumps(obj, separators=(",", ":"), allow_nan=False), flush=True)

    def send(self, packet):
        if self.sock is not None:
            try:
                self.sock.sendto(packet, self.address)
            except OSError as e:  # nobody listening (ICMP refused) must not stop the bridge
                if e.errno not in (111,):
                    raise

    def face(self, now, blend, head):
        if self.args.json:
            self.line({"t": self.t(now), "face": {"blend": {k: round(v, 4) for k, v in blend.items()},
                                                  "head": [round(a, 3) for a in head]}})
        pairs = []
        for k, v in sorted(blend.items()):
            pairs += [k, float(v)]
        self.send(osc_bundle([osc_message("/prospero/face/blend", *pairs), osc_message("/prospero/face/head", *head)]))

    def face_ended(self, now):
        if self.args.json:
            self.line({"t": self.t(now), "ended": "face"})
        self.send(osc_message("/prospero/face/end"))

    def hand(self, now, slot, side, confidence, points):
        flat = [c for p in points for c in p]
        if self.args.json:
            self.line({"t": self.t(now), "hand": {"slot": slot, "side": side, "conf": round(confidence, 4),
                                                  "lm": [round(c, 5) for c in flat]}})
        self.send(osc_message("/prospero/hand", slot, side, confidence, *flat))

    def hand_ended(self, now, slot):
        if self.args.json:
            self.line({"t": self.t(now), "ended": "hand%d" % slot})
        self.send(osc_message("/prospero/hand/end", slot))


# ---- trackers ----

class FaceTracker:
    def __init__(self, mp, args):
        self.mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=bool(args.image), max_num_faces=1,
                                                    refine_landmarks=False, min_detection_confidence=0.5,
                                                    min_tracking_confidence=0.5)
        self.args = args
        self.neutral = fg.Neutral()
        self.calibrating = args.calibrate > 0 or args.calibrate_image
        self.samples, self.calibration_end = [], None
        self.blend_smoother = Smoother(min_cutoff=1.5, beta=3.0)
        self.head_smoother = Smoother(min_cutoff=1.0, beta=0.05)
        self.present = None
        # Frames seen since the face was (re)acquired. MediaPipe's first frame comes from the face
        # detector's box, the next ones from the tracked landmarks; the landmarks shift while that box
        # settles (eye and brow shapes by up to 0.2 over 3 frames on a still photo), so a video face is
        # reported from its fourth frame on. Still images are all detections and report at once.
        self.settle_frames = 0 if args.image else 3
        self.seen = 0
        # The landmarks of the last frame with a face (None without one): what a selfie view draws.
        self.points = None

    def process(self, rgb, now, out):
        h, w = rgb.shape[:2]
        result = self.mesh.process(rgb)
        if not result.multi_face_landmarks:
            if self.present is not False:
                out.face_ended(now)
                if self.present is None:
                    print("prospero camera: no face found", file=sys.stderr)
            self.present = False
            self.seen = 0
            self.points = None
            self.blend_smoother.reset(); self.head_smoother.reset()
            return True
        self.seen += 1
        lm = [(p.x, p.y, p.z) for p in result.multi_face_landmarks[0].landmark]
        self.points = lm
        if self.seen <= self.settle_frames:
            return False
        try:
            g = fg.FaceGeometry(lm, w, h)
        except ValueError:
            return False
        features, raw_head = g.features(), g.head()
        if self.calibrating:
            self.samples.append((features, raw_head))
            if self.calibration_end is None:
                self.calibration_end = now + (self.args.calibrate if not self.args.image else 0)
                print("prospero camera: calibrating, hold a relaxed face toward the camera", file=sys.stderr)
            if now < self.calibration_end:
                return False
            self.neutral = fg.Neutral.average(self.samples)
            self.calibrating = False
            print("prospero camera: calibrated on %d frames" % len(self.samples), file=sys.stderr)
        blend = fg.blendshapes(features, self.neutral, mirrored=self.args.mirror)
        head = fg.head_rotation(raw_head, self.neutral, mirrored=self.args.mirror)
        blend = {k: min(max(self.blend_smoother(k, v, now), 0.0), 1.0) for k, v in blend.items()}
        head = tuple(self.head_smoother(i, a, now) for i, a in enumerate(head))
        out.face(now, blend, head)
        self.present = True
        return True

    def close(self, now, out):
        if self.present:
            out.face_ended(now)


class HandTracker:
    def __init__(self, mp, args):
        self.hands = mp.solutions.hands.Hands(static_image_mode=bool(args.image), max_num_hands=4,
                                              model_complexity=1, min_detection_confidence=0.5,
                                              min_tracking_confidence=0.5)
        self.args = args
        self.slots = {}  # slot -> last wrist (x, y)
        self.smoother = Smoother(min_cutoff=1.0, beta=20.0)
        self.reported_none = False

    def process(self, rgb, now, out):
        result = self.hands.process(rgb)
        found = []
        for lm, handed in zip(result.multi_hand_landmarks or [], result.multi_handedness or []):
            label = handed.classification[0].label.lower()
            # The legacy hands model labels hands as if the image were mirrored (a selfie); a plain
            # camera image needs the labels swapped to name the subject's own hands.
            if not self.args.mirror:
                label = {"left": "right", "right": "left"}.get(label, label)
            found.append((label, handed.classification[0].score, [(p.x, p.y, p.z) for p in lm.landmark]))
        if not found and not self.slots and not self.reported_none:
            print("prospero camera: no hand found", file=sys.stderr)
            self.reported_none = True
            if self.args.json and self.args.once:
                out.line({"t": out.t(now), "ended": "hand0"})
        assigned = self.assign([f[2][0] for f in found])
        for slot in list(self.slots):
            if slot not in assigned.values():
                del self.slots[slot]
                out.hand_ended(now, slot)
                for k in range(63):
                    self.smoother.filters.pop((slot, k), None)
        for i, (label, score, points) in enumerate(found):
            slot = assigned.get(i)
            if slot is None:
                continue
            self.slots[slot] = points[0][:2]
            smooth = [tuple(self.smoother((slot, 3 * j + c), p[c], now) for c in range(3)) for j, p in enumerate(points)]
            out.hand(now, slot, label, score, smooth)
        return True

    def assign(self, wrists):
        """Hand index -> slot 0..3: each hand keeps the slot of the nearest previous wrist."""
        pairs = sorted((math.dist(w[:2], prev), i, slot) for i, w in enumerate(wrists) for slot, prev in self.slots.items())
        out, used = {}, set()
        for d, i, slot in pairs:
            if d < 0.25 and i not in out and slot not in used:
                out[i] = slot; used.add(slot)
        for i in range(len(wrists)):
            if i not in out:
                free = [s for s in range(4) if s not in used]
                if free:
                    out[i] = free[0]; used.add(free[0])
        return out

    def close(self, now, out):
        for slot in list(self.slots):
            out.hand_ended(now, slot)


# ---- frames on a pipe (`--frames-stdin`): the studio's page camera ----
#
# stdin: records of a 4-byte big-endian length n (7...MAX_RECORD), then a UInt32 BE frame id, a UInt16 BE stream
# number (one tracker per stream: a page's camera), a model byte (0: face mesh, 1: hands; a stream whose model
# changes starts a new tracker), then n - 7 bytes of JPEG. A record with no JPEG ends its stream (its face or
# hands end). End of input ends the bridge (status 0).
# stdout: one JSON line first, {"ready":true,"contours":[[a,b],...]} (the face mesh's contour edges between
# landmark indices), then exactly one line per record, in order:
#   {"id":N,"stream":S,"ms":T}                           no face (T: milliseconds spent tracking)
#   {"id":N,"stream":S,"ms":T,"points":[x,y,...]}         a face seen, still settling (not reported yet)
#   {"id":N,"stream":S,"ms":T,"face":{"blend":{...},"head":[yaw,pitch,roll]},"points":[x,y,...]}
#   {"id":N,"stream":S,"ms":T,"ended":"face"}             the face was lost (or the stream ended)
#   {"id":N,"stream":S,"ms":T,"hands":[{"slot":k,"side":"left"|"right","conf":c,"lm":[x,y,z,...]}]}
#                                                         hands seen (21 landmarks each, as /prospero/hand sends)
#   {"id":N,"stream":S,"ms":T,"handsEnded":[k,...]}       hand slots lost at this frame (with "hands" when others stay)
#   {"id":N,"stream":S,"error":"..."}                     the record was not a decodable JPEG
# Points are the 468 landmarks' x, y in 0...1 of the image (4 decimals), not mirrored; hand landmarks x, y
# (0...1 of the image, not mirrored) and z (MediaPipe's relative depth), 5 decimals; a hand's side names the
# subject's own hand (the image is a plain camera image, as --hands without --mirror reads it).

MAX_RECORD = 1 << 20
MAX_STREAMS = 16


class LineOutput:
    """Collects what a tracker reports for one frame (the `Output` interface, without sending anything)."""

    def __init__(self):
        self.face_value = None
        self.ended = False
        self.hands = []
        self.hands_ended = []

    def face(self, now, blend, head):
        self.face_value = {"blend": {k: round(v, 4) for k, v in sorted(blend.items())}, "head": [round(a, 3) for a in head]}

    def face_ended(self, now):
        self.ended = True

    def hand(self, now, slot, side, confidence, points):
        self.hands.append({"slot": slot, "side": side, "conf": round(confidence, 4),
                           "lm": [round(c, 5) for p in points for c in p]})

    def hand_ended(self, now, slot):
        self.hands_ended.append(slot)


def read_exactly(stream, n):
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def run_frames_stdin(args, cv2, mp, stop):
    import numpy
    stdin, stdout = sys.stdin.buffer, sys.stdout

    def line(obj):
        stdout.write(json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n")
        stdout.flush()

    # Blocked in a read, the flag the other modes poll is never seen: a signal ends this mode at once.
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, lambda number, _frame: sys.exit(128 + number))
    contours = sorted([a, b] for a, b in mp.solutions.face_mesh.FACEMESH_CONTOURS)
    line({"ready": True, "contours": contours})
    trackers = {}
    reported = set()  # streams whose face was reported and has not ended
    while not stop["now"]:
        header = read_exactly(stdin, 4)
        if header is None:
            break
        (n,) = struct.unpack(">I", header)
        if not (7 <= n <= MAX_RECORD):
            fail("--frames-stdin: a record of %d bytes (7...%d expected)" % (n, MAX_RECORD))
        record = read_exactly(stdin, n)
        if record is None:
            break
        frame_id, stream, model = struct.unpack(">IHB", record[:7])
        jpeg = record[7:]
        out = LineOutput()
        started = time.monotonic()
        reply = {"id": frame_id, "stream": stream}
        if not jpeg:  # the stream ended: its face or hands end with it
            tracker = trackers.pop(stream, None)
            if tracker is not None:
                tracker.close(started, out)
            if stream in reported:
                reported.discard(stream)
                reply["ended"] = "face"
            if out.hands_ended:
                reply["handsEnded"] = sorted(out.hands_ended)
            line(reply)
            continue
        if model not in (0, 1):
            reply["error"] = "model %d: 0 (face) or 1 (hands) expected" % model
            line(reply)
            continue
        image = cv2.imdecode(numpy.frombuffer(jpeg, numpy.uint8), cv2.IMREAD_COLOR)
        if image is None:
            reply["error"] = "not a decodable JPEG image (%d bytes)" % len(jpeg)
            line(reply)
            continue
        tracker = trackers.get(stream)
        wanted = HandTracker if model == 1 else FaceTracker
        if tracker is not None and not isinstance(tracker, wanted):  # the stream changed model: a new tracker
            trackers.pop(stream).close(started, out)
            if stream in reported:
                reported.discard(stream)
                reply["ended"] = "face"
            tracker = None
        if tracker is None:
            if len(trackers) >= MAX_STREAMS:
                reply["error"] = "more than %d camera streams at once" % MAX_STREAMS
                line(reply)
                continue
            tracker = trackers[stream] = wanted(mp, args)
        rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
        tracker.process(rgb, started, out)
        reply["ms"] = round(1000 * (time.monotonic() - started), 2)
        if out.hands_ended:  # lost, or the stream left the hands model
            reply["handsEnded"] = sorted(out.hands_ended)
        if model == 1:
            if out.hands:
                reply["hands"] = out.hands
            line(reply)
            continue
        if out.face_value is not None:
            reply["face"] = out.face_value
            reported.add(stream)
        elif out.ended and stream in reported:  # a face that was never reported never ends
            reported.discard(stream)
            reply["ended"] = "face"
        if tracker.points is not None:
            reply["points"] = [round(c, 4) for p in tracker.points for c in p[:2]]
        line(reply)
    return stop["status"]


# ---- frames out (`--frames-stdout`): the studio's own camera ----
#
# stdout: records of a 4-byte big-endian length n, a UInt16 BE width, a UInt16 BE height, then n - 4 bytes of
# JPEG (the frame downscaled to fit 320x240, never up), at most --fps records a second; nothing else.

FRAME_WIDTH, FRAME_HEIGHT = 320, 240


def run_frames_stdout(args, cv2, stop):
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, lambda number, _frame: sys.exit(128 + number))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
    source = open_source(args, cv2)
    capture = source[1]
    out = sys.stdout.buffer
    period = 1.0 / args.fps
    next_due = time.monotonic()
    video_period = None
    if args.video:
        fps = capture.get(5)  # CAP_PROP_FPS
        video_period = 1 / fps if fps and fps > 0 else 1 / 30
    try:
        while not stop["now"]:
            ok, image = capture.read()
            if not ok:
                if args.video:  # a file stands in for a camera, which never ends: from the start again
                    capture.set(1, 0)  # CAP_PROP_POS_FRAMES
                    ok, image = capture.read()
                if not ok:
                    fail("the camera %s gave no frame" % (args.video or args.device), status=1)
            now = time.monotonic()
            if now < next_due:  # faster than --fps: this frame is skipped
                if video_period:
                    time.sleep(video_period)
                continue
            next_due = max(next_due + period, now)
            h, w = image.shape[:2]
            scale = min(1.0, FRAME_WIDTH / w, FRAME_HEIGHT / h)
            if scale < 1:
                image = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
            ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 75])
            if not ok:
                continue
            data = jpeg.tobytes()
            h, w = image.shape[:2]
            out.write(struct.pack(">IHH", 4 + len(data), w, h) + data)
            out.flush()
            if video_period:  # play files at their own rate, as a camera would deliver them
                time.sleep(max(0.0, video_period - (time.monotonic() - now)))
    except BrokenPipeError:
        return 0
    finally:
        capture.release()
    return stop["status"]


def parse(argv):
    p = argparse.ArgumentParser(prog="prospero camera", description=__doc__.splitlines()[0])
    what = p.add_mutually_exclusive_group()
    what.add_argument("--face", action="store_true")
    what.add_argument("--hands", action="store_true")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--device", default="/dev/video0")
    src.add_argument("--video")
    src.add_argument("--image")
    src.add_argument("--frames-stdin", action="store_true")
    p.add_argument("--frames-stdout", action="store_true")
    p.add_argument("--fps", type=float, default=30.0)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=9000)
    p.add_argument("--once", action="store_true")
    p.add_argument("--json", action="store_true")
    p.add_argument("--mirror", action="store_true")
    p.add_argument("--calibrate", type=float, nargs="?", const=3.0, default=0.0)
    p.add_argument("--no-send", action="store_true")
    args = p.parse_args(argv)
    if not (1 <= args.port <= 65535):
        fail("--port %d is outside 1...65535" % args.port)
    if args.calibrate < 0 or not math.isfinite(args.calibrate):
        fail("--calibrate needs a positive number of seconds")
    # On a pipe each record names its model; elsewhere one of the two is needed.
    if not (args.fps > 0 and args.fps <= 60):
        fail("--fps must be above 0 and at most 60")
    if args.frames_stdout and (args.image or args.frames_stdin):
        fail("--frames-stdout reads a camera (--device) or a video (--video)")
    if not (args.face or args.hands or args.frames_stdin or args.frames_stdout):
        fail("choose one of --face or --hands")
    # With a still image, calibrating means "this image is the neutral face".
    args.calibrate_image = bool(args.image) and args.calibrate > 0
    return args


def main(argv):
    args = parse(argv)
    die_with_parent()
    try:
        import cv2
    except ImportError as e:
        if "libGL" in str(e) or "libgthread" in str(e) or "libglib" in str(e):
            fail("OpenCV needs system libraries: %s (Debian: apt-get install libgl1 libglib2.0-0)" % e)
        fail("OpenCV is not installed in this Python (run scripts/camera-setup): %s" % e)
    stop = {"now": False, "status": 0}
    if args.frames_stdout:  # frames only: no tracker, so no mediapipe to load
        return run_frames_stdout(args, cv2, stop)
    try:
        import mediapipe as mp
        mp.solutions.face_mesh
    except (ImportError, AttributeError) as e:
        fail("mediapipe 0.10.21 is not installed in this Python (run scripts/camera-setup): %s" % e)

    def on_signal(number, _frame):
        stop["now"], stop["status"] = True, 128 + number
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    # A parent that blocked these (inherited through exec) must not make the bridge deaf to them.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})

    if args.frames_stdin:
        return run_frames_stdin(args, cv2, mp, stop)
    source = open_source(args, cv2)
    out = Output(args)
    tracker = FaceTracker(mp, args) if args.face else HandTracker(mp, args)
    count, busy, last_report = 0, 0.0, time.monotonic()
    now = time.monotonic()
    try:
        for image, captured in frames(source, args, stop):
            rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
            # The tracker's clock (its smoothing, calibration, the lines' `t`) is the frame's own time.
            sent = tracker.process(rgb, captured, out)
            now = time.monotonic()
            busy += now - captured
            count += 1
            if sent and args.once:
                break
            if not args.once and now - last_report >= 2 and count:
                print("prospero camera: %.1f fps, tracking latency %.0f ms" % (count / (now - last_report), 1000 * busy / count),
                      file=sys.stderr, flush=True)
                count, busy, last_report = 0, 0.0, now
    finally:
        if not args.once:
            tracker.close(time.monotonic(), out)
        if source[0] == "capture":
            source[1].release()
    return stop["status"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
