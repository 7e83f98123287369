"""Tests of face_geometry on landmark sets built here (stdlib only; run by CameraBridgeTests).

A synthetic face is laid out in the face frame (x toward the subject's left, y up, units of the
inter-ocular distance), rotated by known angles, scaled and placed in an image, then converted to
MediaPipe's normalised coordinates. Expected values follow from that construction and the spans.
"""

import math
import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import face_geometry as fg  # noqa: E402
import prospero_camera as bridge  # noqa: E402

NEUTRAL_FACE = {
    fg.EYE_R_OUTER: (-0.5, 0, 0), fg.EYE_R_INNER: (-0.2, 0, 0), fg.EYE_R_UPPER: (-0.35, 0.05, 0), fg.EYE_R_LOWER: (-0.35, -0.046, 0),
    fg.EYE_L_OUTER: (0.5, 0, 0), fg.EYE_L_INNER: (0.2, 0, 0), fg.EYE_L_UPPER: (0.35, 0.05, 0), fg.EYE_L_LOWER: (0.35, -0.046, 0),
    fg.BROW_R_INNER: (-0.15, 0.25, 0.02), fg.BROW_R_OUTER: (-0.55, 0.15, -0.05),
    fg.BROW_L_INNER: (0.15, 0.25, 0.02), fg.BROW_L_OUTER: (0.55, 0.15, -0.05),
    fg.FOREHEAD: (0, 0.8, 0), fg.CHIN: (0, -1.3, 0), fg.NOSE_TIP: (0, -0.5, 0.3), fg.NOSE_BRIDGE: (0, 0, 0.1),
    fg.LIP_UPPER_INNER: (0, -0.8, 0.1), fg.LIP_LOWER_INNER: (0, -0.8, 0.1),
    fg.MOUTH_R: (-0.275, -0.8, 0), fg.MOUTH_L: (0.275, -0.8, 0),
    fg.CHEEK_R: (-0.735, -0.4, -0.3), fg.CHEEK_L: (0.735, -0.4, -0.3),
}


def rotation(yaw, pitch, roll):
    """R = R_Y(yaw) R_X(pitch) R_Z(roll), degrees, as rows."""
    y, p, r = (math.radians(a) for a in (yaw, pitch, roll))
    ry = ((math.cos(y), 0, math.sin(y)), (0, 1, 0), (-math.sin(y), 0, math.cos(y)))
    rx = ((1, 0, 0), (0, math.cos(p), -math.sin(p)), (0, math.sin(p), math.cos(p)))
    rz = ((math.cos(r), -math.sin(r), 0), (math.sin(r), math.cos(r), 0), (0, 0, 1))

    def mul(a, b):
        return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))
    return mul(mul(ry, rx), rz)


def landmarks(face, yaw=0.0, pitch=0.0, roll=0.0, size=120.0, centre=(320.0, 240.0), width=640, height=480):
    """MediaPipe-style normalised landmarks of `face` (index -> face-frame point), rotated and placed."""
    R = rotation(yaw, pitch, roll)
    out = [(0.5, 0.5, 0.0)] * 468
    for index, p in face.items():
        q = tuple(sum(R[i][k] * p[k] for k in range(3)) * size for i in range(3))
        # Camera space X right, Y up, Z toward the camera -> image x, y down, MediaPipe z (smaller = closer).
        out = out[:index] + [((centre[0] + q[0]) / width, (centre[1] - q[1]) / height, -q[2] / width)] + out[index + 1:]
    return out


def moved(face, **changes):
    f = dict(face)
    for name, delta in changes.items():
        index = getattr(fg, name)
        f[index] = tuple(a + b for a, b in zip(f[index], delta))
    return f


def analyse(face, neutral, mirrored=False, **pose):
    g = fg.FaceGeometry(landmarks(face, **pose), 640, 480)
    return fg.blendshapes(g.features(), neutral, mirrored), fg.head_rotation(g.head(), neutral, mirrored)


def calibrated():
    g = fg.FaceGeometry(landmarks(NEUTRAL_FACE), 640, 480)
    return fg.Neutral.average([(g.features(), g.head())])


class FaceGeometryTests(unittest.TestCase):
    def test_neutral_face_is_all_zero(self):
        blend, head = analyse(NEUTRAL_FACE, calibrated())
        self.assertEqual(max(blend.values()), 0.0)
        for a in head:
            self.assertAlmostEqual(a, 0.0, places=9)

    def test_jaw_open_rises_monotonically_with_the_mouth(self):
        neutral, last = calibrated(), -1.0
        for k in range(0, 11):
            gap = 0.05 * k  # lower lip (and chin) moved down by gap inter-ocular distances
            face = moved(NEUTRAL_FACE, LIP_LOWER_INNER=(0, -gap, 0), CHIN=(0, -gap, 0))
            blend, _ = analyse(face, neutral)
            expected = min(gap / fg.SPAN["jaw_open"], 1.0)
            self.assertAlmostEqual(blend["jawOpen"], expected, places=9)
            if 0 < gap <= fg.SPAN["jaw_open"]:
                self.assertGreater(blend["jawOpen"], last)
            last = blend["jawOpen"]
        self.assertEqual(last, 1.0)

    def test_head_angles_are_recovered_in_head_rotation_convention(self):
        neutral = calibrated()
        for pose in [(20, 0, 0), (0, -15, 0), (0, 0, 25), (30, 10, -12), (-40, 20, 5)]:
            face = moved(NEUTRAL_FACE, LIP_LOWER_INNER=(0, -0.2, 0))
            blend, head = analyse(face, neutral, yaw=pose[0], pitch=pose[1], roll=pose[2])
            for got, want in zip(head, pose):
                self.assertAlmostEqual(got, want, places=6)
            # Features are measured in the face frame: rotation does not change them.
            self.assertAlmostEqual(blend["jawOpen"], 0.2 / fg.SPAN["jaw_open"], places=9)

    def test_yaw_sign_matches_the_convention(self):
        # Nose toward the camera's right: the nose tip (z toward the camera) moves to +x in the image.
        g = fg.FaceGeometry(landmarks(NEUTRAL_FACE, yaw=20), 640, 480)
        self.assertGreater(g.points[fg.NOSE_TIP][0], 320)
        self.assertGreater(g.head()[0], 0)

    def test_distance_and_position_do_not_matter(self):
        face = moved(NEUTRAL_FACE, LIP_LOWER_INNER=(0, -0.1, 0), MOUTH_L=(0, 0.04, 0))
        a, _ = analyse(face, calibrated(), size=60, centre=(100.0, 100.0))
        b, _ = analyse(face, calibrated(), size=200, centre=(400.0, 300.0))
        for k in a:
            self.assertAlmostEqual(a[k], b[k], places=9)

    def test_one_sided_smile_and_mirroring(self):
        face = moved(NEUTRAL_FACE, MOUTH_L=(0, 0.04, 0))  # the subject's left corner raised 0.04
        blend, head = analyse(face, calibrated())
        # The raised corner also widens the mouth a little: width 0.55 -> hypot(0.55, 0.04).
        widen = (math.hypot(0.55, 0.04) / 0.55 - 1) / fg.SPAN["smile_widen"]
        self.assertAlmostEqual(blend["mouthSmileLeft"], 0.7 * 0.04 / fg.SPAN["smile_rise"] + 0.3 * widen, places=9)
        self.assertAlmostEqual(blend["mouthSmileRight"], 0.3 * widen, places=9)  # widening only
        mirrored, mhead = analyse(face, calibrated(), mirrored=True, yaw=10, roll=5)
        self.assertAlmostEqual(mirrored["mouthSmileRight"], blend["mouthSmileLeft"], places=9)
        self.assertAlmostEqual(mhead[0], -10, places=6)
        self.assertAlmostEqual(mhead[2], -5, places=6)

    def test_blink_brows_pucker(self):
        neutral = calibrated()
        closed = moved(NEUTRAL_FACE, EYE_L_UPPER=(0, -0.072, 0))  # opening 0.096 -> 0.024: a quarter
        self.assertAlmostEqual(analyse(closed, neutral)[0]["eyeBlinkLeft"], 1.0, places=6)
        self.assertEqual(analyse(closed, neutral)[0]["eyeBlinkRight"], 0.0)
        raised = moved(NEUTRAL_FACE, BROW_R_INNER=(0, 0.05, 0), BROW_L_INNER=(0, 0.05, 0))
        self.assertAlmostEqual(analyse(raised, neutral)[0]["browInnerUp"], 0.05 / fg.SPAN["brow_up"], places=9)
        narrow = moved(NEUTRAL_FACE, MOUTH_R=(0.055, 0, 0), MOUTH_L=(-0.055, 0, 0))  # 20 % narrower
        self.assertAlmostEqual(analyse(narrow, neutral)[0]["mouthPucker"], 0.2 / fg.SPAN["pucker"], places=9)

    def test_weights_stay_in_0_1_for_wild_faces(self):
        import random
        rng = random.Random(18)
        neutral = fg.Neutral()  # the documented default neutral
        for _ in range(200):
            face = {k: tuple(c + rng.uniform(-0.3, 0.3) for c in p) for k, p in NEUTRAL_FACE.items()}
            try:
                blend, head = analyse(face, neutral, yaw=rng.uniform(-60, 60), pitch=rng.uniform(-40, 40))
            except ValueError:
                continue  # degenerate geometry is refused, never a NaN
            self.assertTrue(all(0.0 <= v <= 1.0 for v in blend.values()))
            self.assertTrue(all(math.isfinite(a) and -180 <= a <= 180 for a in head))

    def test_too_few_landmarks_is_refused(self):
        with self.assertRaises(ValueError):
            fg.FaceGeometry([(0.5, 0.5, 0)] * 10)


class OSCEncodingTests(unittest.TestCase):
    def test_messages_match_osc_1_0_bytes(self):
        # "/prospero/face/head" is 19 chars + NUL = 20 bytes; ",fff" + NUL padded to 8.
        got = bridge.osc_message("/prospero/face/head", 1.0, -2.5, 0.0)
        want = b"/prospero/face/head\0" + b",fff\0\0\0\0" + struct.pack(">fff", 1.0, -2.5, 0.0)
        self.assertEqual(got, want)
        hand = bridge.osc_message("/prospero/hand/end", 2)
        self.assertEqual(hand, b"/prospero/hand/end\0\0" + b",i\0\0" + b"\0\0\0\2")
        b = bridge.osc_bundle([hand])
        self.assertEqual(b[:16], b"#bundle\0" + b"\0" * 7 + b"\1")
        self.assertEqual(b[16:20], struct.pack(">i", len(hand)))

    def test_one_euro_settles_and_reseeds(self):
        f = bridge.OneEuro(1.0, 0.0)
        self.assertEqual(f(5.0, 0.0), 5.0)
        values = [f(1.0, 0.01 * k) for k in range(1, 400)]
        self.assertTrue(all(a >= b for a, b in zip(values, values[1:])))
        self.assertAlmostEqual(values[-1], 1.0, places=3)
        self.assertEqual(f(9.0, 10.0), 9.0)  # a gap over 0.5 s re-seeds


if __name__ == "__main__":
    unittest.main(verbosity=1)
