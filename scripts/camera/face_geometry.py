"""Blendshape weights and head rotation from MediaPipe's 468 face-mesh landmarks.

Pure Python (no numpy) so the mapping is testable with a bare python3. Landmarks are MediaPipe's
normalised (x, y, z): x, y in 0..1 of the image width and height, origin top-left, y down; z relative
depth on the scale of x, smaller = closer to the camera.

Method: the landmarks are put in camera space (X right, Y up, Z toward the camera, in pixels), a face
frame is built from the eye corners (X, subject's right eye to left eye) and forehead-to-chin (Y), and
every point is expressed in that frame divided by the inter-ocular distance (outer eye corners). The
features below are then free of head rotation, distance and image size. Each blendshape is the change
of one feature from a neutral face over a span (how far the feature moves for weight 1), clamped to
0..1. The neutral is calibrated per performer (`Neutral.average`), or `DEFAULT_NEUTRAL` is used.

Head rotation is the face frame's rotation in Prospero's HeadRotation convention: R = R_Y(yaw) R_X(pitch)
R_Z(roll) in degrees; yaw > 0 nose toward the camera's right, pitch > 0 nose down, roll > 0 head top
toward the camera's left.

Left and right are the subject's own for a camera image that is not mirrored; `mirrored=True` (a selfie
image) swaps them and negates yaw and roll.
"""

import math

# MediaPipe face-mesh indices. "R" and "L" are the subject's right and left in a non-mirrored image.
EYE_R_OUTER, EYE_R_INNER, EYE_R_UPPER, EYE_R_LOWER = 33, 133, 159, 145
EYE_L_OUTER, EYE_L_INNER, EYE_L_UPPER, EYE_L_LOWER = 263, 362, 386, 374
BROW_R_INNER, BROW_R_OUTER = 107, 70
BROW_L_INNER, BROW_L_OUTER = 336, 300
LIP_UPPER_INNER, LIP_LOWER_INNER = 13, 14
MOUTH_R, MOUTH_L = 61, 291
FOREHEAD, CHIN = 10, 152
NOSE_TIP, NOSE_BRIDGE = 1, 168
CHEEK_R, CHEEK_L = 234, 454

FEATURES = ("lip_gap", "mouth_width", "corner_rise_r", "corner_rise_l", "eye_open_r", "eye_open_l",
            "brow_inner_r", "brow_inner_l", "brow_outer_r", "brow_outer_l", "cheek_width", "jaw_x", "mouth_x")

# A neutral face in the features' units (inter-ocular distances), used until a calibration replaces it:
# a closed, relaxed mouth (no lip gap, corners level with the lip line, width 0.55 of the outer eye-corner
# distance, as in adult anthropometry: ~50 mm mouth, ~90 mm eye corners); eyes, brows and cheek width as
# MediaPipe measures them on a camera-facing portrait (scikit-image's astronaut photo: eye opening 0.33,
# inner brows 0.26, outer brows 0.15, cheek width 1.48); the face centred.
DEFAULT_NEUTRAL = {
    "lip_gap": 0.0, "mouth_width": 0.55, "corner_rise_r": 0.0, "corner_rise_l": 0.0,
    "eye_open_r": 0.32, "eye_open_l": 0.32, "brow_inner_r": 0.25, "brow_inner_l": 0.25,
    "brow_outer_r": 0.15, "brow_outer_l": 0.15, "cheek_width": 1.47, "jaw_x": 0.0, "mouth_x": 0.0,
}

# MediaPipe's forehead point (10) sits behind the chin (152) in depth, so a camera-facing face reads about
# 11 degrees nose-down (the astronaut portrait: 10.9); the default neutral removes that.
DEFAULT_NEUTRAL_HEAD = (0.0, 11.0, 0.0)

# Feature change for weight 1 (inter-ocular units, or a fraction of the neutral where noted).
SPAN = {
    "jaw_open": 0.40,        # inner-lip gap of a wide-open mouth
    "smile_rise": 0.08,      # corner raised about 7 mm
    "smile_widen": 0.20,     # mouth 20 % wider (fraction of neutral width)
    "frown": 0.05,
    "pucker": 0.30,          # mouth 30 % narrower (fraction)
    "blink": 0.75,           # eye opening down to a quarter (fraction)
    "wide": 0.50,            # eye opening up by half (fraction)
    "brow_up": 0.10,
    "brow_down": 0.06,
    "cheek_puff": 0.06,      # face 6 % wider at the cheeks (fraction)
    "jaw_side": 0.10,
    "mouth_side": 0.10,
}


def _sub(a, b): return (a[0] - b[0], a[1] - b[1], a[2] - b[2])
def _dot(a, b): return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
def _cross(a, b): return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
def _scale(a, s): return (a[0] * s, a[1] * s, a[2] * s)
def _norm(a): return math.sqrt(_dot(a, a))
def _clamp01(v): return 0.0 if not math.isfinite(v) else min(max(v, 0.0), 1.0)


def _unit(a):
    n = _norm(a)
    if not (n > 1e-9):
        raise ValueError("degenerate face geometry")
    return _scale(a, 1.0 / n)


class FaceGeometry:
    """The face frame and features of one set of landmarks."""

    def __init__(self, landmarks, width=1.0, height=1.0):
        if len(landmarks) < 468:
            raise ValueError("need 468 face landmarks, got %d" % len(landmarks))
        # Camera space: X right, Y up, Z toward the camera, all in pixels.
        p = [(x * width, -y * height, -z * width) for (x, y, z) in landmarks]
        self.points = p
        x_axis = _unit(_sub(p[EYE_L_OUTER], p[EYE_R_OUTER]))
        up = _sub(p[FOREHEAD], p[CHIN])
        y_axis = _unit(_sub(up, _scale(x_axis, _dot(up, x_axis))))
        z_axis = _cross(x_axis, y_axis)
        self.axes = (x_axis, y_axis, z_axis)
        self.iod = _norm(_sub(p[EYE_L_OUTER], p[EYE_R_OUTER]))
        self.origin = _scale(tuple(map(sum, zip(p[EYE_L_OUTER], p[EYE_R_OUTER]))), 0.5)

    def local(self, index):
        """Point `index` in the face frame, inter-ocular units (x toward the subject's left, y up)."""
        d = _sub(self.points[index], self.origin)
        return tuple(_dot(d, a) / self.iod for a in self.axes)

    def head(self):
        """(yaw, pitch, roll) in degrees, HeadRotation's convention. R's columns are the face axes."""
        (x, y, z) = self.axes
        m02, m12, m22 = z[0], z[1], z[2]
        m10, m11 = x[1], y[1]
        pitch = math.degrees(math.asin(min(max(-m12, -1.0), 1.0)))
        yaw = math.degrees(math.atan2(m02, m22))
        roll = math.degrees(math.atan2(m10, m11))
        return yaw, pitch, roll

    def features(self):
        L = self.local
        lip_mid_y = (L(LIP_UPPER_INNER)[1] + L(LIP_LOWER_INNER)[1]) / 2

        def eye_open(upper, lower, outer, inner):
            width = math.dist(L(outer)[:2], L(inner)[:2])
            return (L(upper)[1] - L(lower)[1]) / width if width > 1e-9 else 0.0

        eye_line_r = (L(EYE_R_OUTER)[1] + L(EYE_R_INNER)[1]) / 2
        eye_line_l = (L(EYE_L_OUTER)[1] + L(EYE_L_INNER)[1]) / 2
        return {
            "lip_gap": L(LIP_UPPER_INNER)[1] - L(LIP_LOWER_INNER)[1],
            "mouth_width": math.dist(L(MOUTH_R)[:2], L(MOUTH_L)[:2]),
            "corner_rise_r": L(MOUTH_R)[1] - lip_mid_y,
            "corner_rise_l": L(MOUTH_L)[1] - lip_mid_y,
            "eye_open_r": eye_open(EYE_R_UPPER, EYE_R_LOWER, EYE_R_OUTER, EYE_R_INNER),
            "eye_open_l": eye_open(EYE_L_UPPER, EYE_L_LOWER, EYE_L_OUTER, EYE_L_INNER),
            "brow_inner_r": L(BROW_R_INNER)[1] - eye_line_r,
            "brow_inner_l": L(BROW_L_INNER)[1] - eye_line_l,
            "brow_outer_r": L(BROW_R_OUTER)[1] - eye_line_r,
            "brow_outer_l": L(BROW_L_OUTER)[1] - eye_line_l,
            "cheek_width": math.dist(L(CHEEK_R)[:2], L(CHEEK_L)[:2]),
            "jaw_x": L(CHIN)[0] - L(NOSE_BRIDGE)[0],
            "mouth_x": (L(MOUTH_R)[0] + L(MOUTH_L)[0]) / 2 - L(NOSE_TIP)[0],
        }


class Neutral:
    """A neutral face: feature values and head angles that read as weight 0 and rotation 0."""

    def __init__(self, features=None, head=None):
        self.features = dict(DEFAULT_NEUTRAL if features is None else features)
        self.head = tuple(DEFAULT_NEUTRAL_HEAD if head is None else head)

    @staticmethod
    def average(samples):
        """The mean of (features, head) samples, e.g. a few seconds of a relaxed face."""
        if not samples:
            return Neutral()
        n = len(samples)
        feats = {k: sum(s[0][k] for s in samples) / n for k in FEATURES}
        head = tuple(sum(s[1][i] for s in samples) / n for i in range(3))
        return Neutral(feats, head)


def blendshapes(features, neutral, mirrored=False):
    """ARKit-named weights 0..1 from `features` relative to `neutral` (a Neutral)."""
    n = neutral.features
    d = {k: features[k] - n[k] for k in FEATURES}

    def rel(k):
        return features[k] / n[k] - 1 if n[k] > 1e-9 else 0.0

    out = {}
    out["jawOpen"] = _clamp01(d["lip_gap"] / SPAN["jaw_open"])
    widen = rel("mouth_width") / SPAN["smile_widen"]
    for side, key in (("Right", "r"), ("Left", "l")):
        rise = d["corner_rise_" + key]
        out["mouthSmile" + side] = _clamp01(0.7 * rise / SPAN["smile_rise"] + 0.3 * widen)
        out["mouthFrown" + side] = _clamp01(-rise / SPAN["frown"])
        eye = rel("eye_open_" + key)
        out["eyeBlink" + side] = _clamp01(-eye / SPAN["blink"])
        out["eyeWide" + side] = _clamp01(eye / SPAN["wide"])
        out["browOuterUp" + side] = _clamp01(d["brow_outer_" + key] / SPAN["brow_up"])
        out["browDown" + side] = _clamp01(-d["brow_inner_" + key] / SPAN["brow_down"])
    out["browInnerUp"] = _clamp01((d["brow_inner_r"] + d["brow_inner_l"]) / 2 / SPAN["brow_up"])
    out["mouthPucker"] = _clamp01(-rel("mouth_width") / SPAN["pucker"])
    out["cheekPuff"] = _clamp01(rel("cheek_width") / SPAN["cheek_puff"])
    # The face frame's x points toward the subject's left.
    out["jawLeft"] = _clamp01(d["jaw_x"] / SPAN["jaw_side"])
    out["jawRight"] = _clamp01(-d["jaw_x"] / SPAN["jaw_side"])
    out["mouthLeft"] = _clamp01(d["mouth_x"] / SPAN["mouth_side"])
    out["mouthRight"] = _clamp01(-d["mouth_x"] / SPAN["mouth_side"])
    if mirrored:
        out = {_swap_side(k): v for k, v in out.items()}
    return out


def head_rotation(geometry_head, neutral, mirrored=False):
    """(yaw, pitch, roll) relative to the neutral's, wrapped to -180..180; mirrored negates yaw and roll."""
    yaw, pitch, roll = (_wrap(a - b) for a, b in zip(geometry_head, neutral.head))
    if mirrored:
        yaw, roll = -yaw, -roll
    return yaw, pitch, roll


def _wrap(a):
    return (a + 180.0) % 360.0 - 180.0


def _swap_side(name):
    if name.endswith("Left"):
        return name[:-4] + "Right"
    if name.endswith("Right"):
        return name[:-5] + "Left"
    return name
