"""Writes examples/song.mid: 8 bars, C major I–vi–IV–V twice, chords + melody + bass,
a tempo change (96 → 112 BPM at bar 5), sustain pedal on the chords, mod wheel and a pitch bend
in the melody. Regenerate with: python3 examples/make_song.py (needs mido)."""
import mido

TPQ = 480
BAR = 4 * TPQ
mid = mido.MidiFile(type=1, ticks_per_beat=TPQ)

conductor = mido.MidiTrack()
conductor.append(mido.MetaMessage('track_name', name='Prospero song', time=0))
conductor.append(mido.MetaMessage('time_signature', numerator=4, denominator=4, time=0))
conductor.append(mido.MetaMessage('set_tempo', tempo=mido.bpm2tempo(96), time=0))
conductor.append(mido.MetaMessage('set_tempo', tempo=mido.bpm2tempo(112), time=4 * BAR))
conductor.append(mido.MetaMessage('end_of_track', time=4 * BAR))
mid.tracks.append(conductor)

def track(name, events):
    """events: (tick, message) with absolute ticks -> a track with delta times."""
    t = mido.MidiTrack()
    t.append(mido.MetaMessage('track_name', name=name, time=0))
    now = 0
    for tick, msg in sorted(events, key=lambda e: (e[0], e[1].type == 'note_on')):
        t.append(msg.copy(time=tick - now))
        now = tick
    t.append(mido.MetaMessage('end_of_track', time=0))
    return t

progression = [[60, 64, 67], [57, 60, 64], [53, 57, 60], [55, 59, 62]] * 2   # C Am F G
chords = []
for bar, chord in enumerate(progression):
    start = bar * BAR
    chords.append((start, mido.Message('control_change', channel=0, control=64, value=127)))
    for note in chord:
        chords.append((start + 2, mido.Message('note_on', channel=0, note=note, velocity=70)))
        chords.append((start + 2 * TPQ, mido.Message('note_off', channel=0, note=note, velocity=0)))
    chords.append((start + BAR - 20, mido.Message('control_change', channel=0, control=64, value=0)))
mid.tracks.append(track('Chords', chords))

melody_notes = [  # (bar, beat, length in beats, note)
    (0, 0, 1, 72), (0, 1, 1, 74), (0, 2, 2, 76),
    (1, 0, 1, 76), (1, 1, 1, 74), (1, 2, 2, 72),
    (2, 0, 1.5, 69), (2, 1.5, 0.5, 71), (2, 2, 2, 72),
    (3, 0, 1, 74), (3, 1, 1, 71), (3, 2, 2, 67),
    (4, 0, 0.5, 72), (4, 0.5, 0.5, 74), (4, 1, 1, 76), (4, 2, 2, 79),
    (5, 0, 1, 81), (5, 1, 1, 79), (5, 2, 2, 76),
    (6, 0, 1, 77), (6, 1, 1, 76), (6, 2, 1, 74), (6, 3, 1, 72),
    (7, 0, 4, 72),
]
melody = []
for bar, beat, length, note in melody_notes:
    on = int(bar * BAR + beat * TPQ)
    off = int(on + length * TPQ) - 10
    melody.append((on, mido.Message('note_on', channel=1, note=note, velocity=100)))
    melody.append((off, mido.Message('note_off', channel=1, note=note, velocity=64)))
# Mod wheel up over the long last note (vibrato), and a small bend into bar 5's first note.
for i in range(16):
    melody.append((7 * BAR + i * TPQ // 4, mido.Message('control_change', channel=1, control=1, value=min(127, i * 9))))
for i in range(8):
    melody.append((4 * BAR - TPQ // 2 + i * TPQ // 16, mido.Message('pitchwheel', channel=1, pitch=-4096 + i * 512)))
melody.append((4 * BAR, mido.Message('pitchwheel', channel=1, pitch=0)))
mid.tracks.append(track('Melody', melody))

bass = []
for bar, chord in enumerate(progression):
    root = chord[0] - 24
    for beat in (0, 2):
        on = bar * BAR + beat * TPQ
        bass.append((on, mido.Message('note_on', channel=2, note=root, velocity=90)))
        bass.append((on + 2 * TPQ - 40, mido.Message('note_off', channel=2, note=root, velocity=0)))
mid.tracks.append(track('Bass', bass))

mid.save(__file__.replace('make_song.py', 'song.mid'))
