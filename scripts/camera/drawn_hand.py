"""A hand drawn for the camera tests (no photograph of a hand ships in any package the camera venv installs):
an open right hand, palm toward the camera (thumb on the image's right), in skin tones on a warm gradient,
320x240 (the largest frame a page sends). MediaPipe's hand model finds it and puts its 21 landmarks on the
drawn fingers; the two palm lines are what tells it a palm from the back of a hand (without them its
handedness flipped between a PNG and its JPEG), and with them it names the hand the same, 0.7-0.9 sure,
in PNG and in JPEG at quality 60-90, as a still image and as video.

Usage (the camera venv's Python): scripts/camera/drawn_hand.py OUT.png"""
import math
import sys

import cv2
import numpy


def drawn_hand(width=320, height=240):
    image = numpy.zeros((height, width, 3), numpy.float32)
    for y in range(height):  # a background that darkens downwards, as a room behind a hand
        image[y] = (60 + (y - height / 2) * 0.15, 90 + (y - height / 2) * 0.15, 120 + (y - height / 2) * 0.15)
    cx, cy = width // 2, int(height * 0.68)
    mask = numpy.zeros((height, width), numpy.uint8)
    cv2.ellipse(mask, (cx, cy), (46, 52), 0, 0, 360, 255, -1)       # the palm
    cv2.rectangle(mask, (cx - 30, cy + 30), (cx + 30, height), 255, -1)  # the wrist
    # Index, middle, ring, little finger: base offset from the palm's centre, length, lean (degrees).
    for dx, length, lean in ((-33, 62, -19.2), (-12, 74, -6.0), (10, 78, 3.6), (30, 66, 13.2)):
        bx, by = cx + dx, cy - 40
        tx, ty = int(bx + length * math.sin(math.radians(lean))), int(by - length * math.cos(math.radians(lean)))
        cv2.line(mask, (bx, by), (tx, ty), 255, 19)
        cv2.circle(mask, (tx, ty), 9, 255, -1)
    cv2.line(mask, (cx + 38, cy + 10), (cx + 72, cy - 22), 255, 22)  # the thumb
    cv2.line(mask, (cx + 72, cy - 22), (cx + 92, cy - 50), 255, 19)
    cv2.circle(mask, (cx + 92, cy - 50), 9, 255, -1)
    shade = cv2.GaussianBlur(mask.astype(numpy.float32), (0, 0), 5)[..., None] / 255.0
    skin = numpy.array((120, 160, 215), numpy.float32) * (0.75 + 0.25 * shade)  # BGR, lit from the middle
    image = numpy.where(mask[..., None] > 0, skin, image)
    crease = (80, 110, 165)
    cv2.ellipse(image, (cx - 5, cy - 8), (36, 14), 10, 180, 360, crease, 2)   # the heart line
    cv2.ellipse(image, (cx + 10, cy + 12), (30, 30), 0, 180, 270, crease, 2)  # the life line around the thumb
    return cv2.GaussianBlur(numpy.clip(image, 0, 255).astype(numpy.uint8), (3, 3), 0)


if __name__ == "__main__":
    cv2.imwrite(sys.argv[1], drawn_hand())
