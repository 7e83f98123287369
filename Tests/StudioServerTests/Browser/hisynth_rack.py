"""HiSynth's rack end to end, in headless Chromium against a real `prospero studio --audio jack` on a dummy
JACK server, with jack_midiseq playing into the studio's midi_in.

Checks: the page loads with no console errors; every control has an aria-label and a data-testid; the
walkthrough (welcome window, seven steps with Next, none on the last, reopened from the logo); importing a
factory string through the page selects it and the engine's settings (the frame's `engine`) equal the
decoded JSON of the factory vectors except the documented clamps; the computer keyboard plays notes;
setting the LP cutoff through the page's slider moves the −3 dB point of the rendered spectrum (filter
output against the open filter, so the oscillator's own spectrum cancels); pointer multi-touch on the keys;
the piano roll shows a song's notes at the times mido reads from the song's file; MIDI into JACK plays it.
Then a screenshot.

Every process this script starts is stopped by its pid (SIGINT/SIGTERM, never a name).
Usage: hisynth_rack.py PROSPERO SCREENSHOT.png VECTORS.jsonl SONG.mid"""
import base64
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
import uuid

import mido
from core_browser import GENEROUS, studio_browser, console_errors, by_testid, wait_for, fail
from children import Children, stop
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.support.ui import Select

prospero, screenshot, vectors_path, song_path = sys.argv[1:5]
server = f"hisynth{uuid.uuid4().hex[:8]}"
env = dict(os.environ, JACK_DEFAULT_SERVER=server, JACK_NO_AUDIO_RESERVATION="1",
           XDG_DATA_HOME=f"/tmp/{server}-data")
children = Children(env, server)
start = children.start


def minus3(difference, centres):
    """First frequency above 500 Hz where `difference` (dB) falls below −3, interpolated in log frequency."""
    for i in range(1, len(difference)):
        if centres[i - 1] > 500 and difference[i - 1] > -3 >= difference[i]:
            t = (-3 - difference[i - 1]) / (difference[i] - difference[i - 1])
            return math.exp(math.log(centres[i - 1]) + t * (math.log(centres[i]) - math.log(centres[i - 1])))
    return None


def close(a, b, tolerance=1e-6):
    return abs(a - b) <= tolerance * max(1.0, abs(b))


studio = None
passed = False
try:
    children.start_jackd()
    # --no-settings: the octave and sound this test turns must not reach (or come from) the user's settings file
    # (a run that starts from another run's octave 1 cannot step down to 3).
    studio = start([prospero, "studio", "--audio", "jack", "--port", "0", "--osc-port", "0", "--no-qr", "--no-settings",
                    "--client-name", "HiSynthRack", "--no-connect-audio"])
    studio_out = children.reader(studio)
    url = wait_for(lambda: next((m.group(0) for l in studio_out.lines for m in [re.search(r"http://127\.0\.0\.1:\d+/\S*", l)] if m), None), what=f"the studio's URL (output so far: {studio_out.text()})")
    base = url.split("?")[0].rstrip("/")

    with studio_browser(width=1400, height=1000) as driver:
        driver.set_page_load_timeout(60)   # a loaded 2-core machine can take its renderer past 20 s
        driver.get(base + "/hisynth/")
        wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection")
        # The welcome window opens at launch.
        wait_for(lambda: by_testid(driver, "hisynth-welcome").is_displayed(), what="the welcome window")
        by_testid(driver, "hisynth-welcome-close").click()
        if by_testid(driver, "not-active").is_displayed():
            by_testid(driver, "hisynth-activate").click()
        wait_for(lambda: not by_testid(driver, "not-active").is_displayed(), what="HiSynth active")
        js = lambda what: driver.execute_script(f"return window.hisynth.{what}")
        wait_for(lambda: js("state.controls") and len(js("state.factoryPresets")) == 15, what="the rack's state")
        wait_for(lambda: js("frame") is not None, what="frames (the engine renders)")

        bare = driver.execute_script("""
            return [...document.querySelectorAll('button, input, select, a, canvas, [role=button], [role=application], [role=img]')]
              .filter(e => !e.getAttribute('aria-label') || !e.dataset.testid).map(e => e.outerHTML.slice(0, 100));""")
        if bare:
            fail(f"controls without aria-label or data-testid: {bare}")
        if len(driver.find_elements("css selector", '[data-testid^="hisynth-key-"]')) != 25:
            fail("the keyboard does not have 25 keys")

        # The walkthrough: the logo reopens the welcome window; seven steps, Next on all but the last.
        by_testid(driver, "hisynth-logo").click()
        wait_for(lambda: by_testid(driver, "hisynth-welcome").is_displayed(), what="the welcome window from the logo")
        by_testid(driver, "hisynth-welcome-start").click()
        titles = []
        for i in range(7):
            step = by_testid(driver, "hisynth-step")
            wait_for(lambda: step.is_displayed() and step.get_attribute("data-index") == str(i), what=f"step {i + 1}")
            titles.append(by_testid(driver, "hisynth-step").find_element("css selector", "h3").text)
            if i < 6:
                by_testid(driver, "hisynth-step-next").click()
        if by_testid(driver, "hisynth-step-next").is_displayed():
            fail("the last step (Rack) offers Next")
        expected = ["Oscillator", "Envelope Generator", "Filters", "Low Frequency Oscillators (LFO)", "Audio Effects", "Presets", "Rack"]
        if [t.split(". ", 1)[1] for t in titles] != expected:
            fail(f"walkthrough steps {titles}")
        by_testid(driver, "hisynth-step-ok").click()
        wait_for(lambda: not by_testid(driver, "hisynth-step").is_displayed(), what="the step to close")

        # Import each of three factory strings through the page: selected, engine settings = decoded JSON.
        vectors = [json.loads(line) for line in open(vectors_path) if line.strip()]
        for vector in [vectors[5], vectors[9], vectors[-1]]:
            d = vector["decoded"]
            field = by_testid(driver, "hisynth-import-text")
            field.clear()
            field.send_keys(vector["string"])
            by_testid(driver, "hisynth-import").click()
            wait_for(lambda: js("state.preset") == d["name"], what=f"{d['name']} selected")
            if by_testid(driver, "hisynth-factory-list").get_attribute("value") != d["name"]:
                fail(f"the factory list does not show {d['name']} selected")
            if by_testid(driver, "hisynth-export-text").get_attribute("value") != vector["string"]:
                fail(f"{d['name']}: the export string differs from the imported one")

            def engine_matches():
                e = js("frame.engine")
                problems = []
                for i, o in enumerate(d["oscillators"]):
                    got = e["osc"][i]
                    if got["waveform"] != o["waveform"] or not close(got["level"], o["level"]) or not close(got["pitch"], o["pitch"]):
                        problems.append(f"osc{i + 1} {got} vs {o}")
                env_ = d["envelope"]
                # Documented clamps: decay and release at least 0.05 s.
                want = {"attack": env_["attack"], "decay": max(env_["decay"], 0.05), "sustain": env_["sustain"], "release": max(env_["release"], 0.05)}
                problems += [f"envelope {k} {e['envelope'][k]} vs {v}" for k, v in want.items() if not close(e["envelope"][k], v)]
                for f in ["lowPass", "highPass"]:
                    for k in ["cutoff", "resonance"]:
                        if not close(e[f][k], d["filters"][f][k]):
                            problems.append(f"{f} {k} {e[f][k]} vs {d['filters'][f][k]}")
                for i, l in enumerate(d["lfos"]):
                    for k, v in l.items():
                        if (isinstance(v, str) and e["lfos"][i][k] != v) or (not isinstance(v, str) and not close(e["lfos"][i][k], v)):
                            problems.append(f"lfo{i + 1} {k} {e['lfos'][i][k]} vs {v}")
                fx, x = e["effects"], d["effects"]
                rooms = ["mediumHall", "largeHall", "largeHall2"] if x["reverb"]["type"] == "hall" else ["smallRoom", "mediumRoom", "largeRoom"]
                checks = [("reverbOn", x["reverb"]["on"]), ("reverbMix", x["reverb"]["mix"]), ("reverb", rooms[round(x["reverb"]["size"]) - 1]),
                          ("delayOn", x["delay"]["on"]), ("delayFeedback", x["delay"]["feedback"] / 100), ("delayTime", x["delay"]["time"]),
                          ("delayMix", x["delay"]["mix"] / 100), ("driveOn", x["drive"]["on"]), ("driveGain", x["drive"]["gain"]),
                          ("driveMix", x["drive"]["mix"] / 100), ("decimatorOn", x["decimator"]["on"]),
                          ("decimatorRate", x["decimator"]["rate"]), ("decimatorMix", x["decimator"]["mix"] / 100)]
                for k, v in checks:
                    if (isinstance(v, (bool, str)) and fx[k] != v) or (not isinstance(v, (bool, str)) and not close(fx[k], v)):
                        problems.append(f"{k} {fx[k]} vs {v}")
                return problems
            wait_for(lambda: not engine_matches(), what=f"{d['name']}: engine settings equal to the decoded JSON ({engine_matches()})")

        # Init is loaded. A saw on osc 1 alone; LP resonance −3 dB (Q = 1/√2: −3 dB at the cutoff).
        Select(by_testid(driver, "hisynth-osc1-waveform")).select_by_value("saw")
        def slide(testid, fraction):
            driver.execute_script("""const i = document.querySelector(`[data-testid="${arguments[0]}"]`);
                i.value = String(arguments[1]); i.dispatchEvent(new Event('input', {bubbles: true}));""", testid, fraction)
        slide("hisynth-osc2-level", 0)
        slide("hisynth-lp-resonance", (-3.0103 + 20) / 54)  # the control spans −20…34 dB
        wait_for(lambda: js("state['osc2.level']") == 0 and js("state['osc1.waveform']") == "saw"
                 and abs(js("state['lp.resonance']") + 3.01) < 0.02, what="saw, osc 2 silent, resonance −3 dB")

        # The computer keyboard: octave 3 (◀), A = C2 (MIDI 36), held.
        by_testid(driver, "hisynth-octave-down").click()
        wait_for(lambda: js("state.octave") == 3, what="octave 3")
        driver.execute_script("document.activeElement && document.activeElement.blur()")
        ActionChains(driver).key_down("a").perform()
        wait_for(lambda: js("frame.held") == [36], what="A on the computer keyboard holds MIDI 36")
        if "down" not in by_testid(driver, "hisynth-key-0").get_attribute("class"):
            fail("the key of A is not lit")

        centres = js("state.spectrumBands")

        def spectrum(cutoff, settle=0.5):
            # The engine runs the new cutoff (the frame's live cutoff), then its 2048-sample window fills.
            wait_for(lambda: abs(js("frame.cutoffs.low") / cutoff - 1) < 0.02, what=f"the engine at cutoff {cutoff}")
            time.sleep(settle)
            total = None
            for _ in range(6):
                first = js("frame.spectrum")
                time.sleep(0.07)
                total = first if total is None else [a + b for a, b in zip(total, first)]
            return [v / 6 for v in total]

        slide("hisynth-lp-cutoff", 1)
        wait_for(lambda: js("state['lp.cutoff']") > 22000, what="the LP open")
        open_ = spectrum(22048)
        points = []
        for cutoff in [2000, 5000]:
            slide("hisynth-lp-cutoff", math.log(cutoff / 10) / math.log(22050 / 10))
            wait_for(lambda: abs(js("state['lp.cutoff']") / cutoff - 1) < 0.01, what=f"LP cutoff {cutoff}")
            measured = minus3([a - b for a, b in zip(spectrum(js("state['lp.cutoff']")), open_)], centres)
            if measured is None or abs(measured / cutoff - 1) > 0.15:
                fail(f"LP cutoff {cutoff} Hz: the spectrum's −3 dB point is at {measured} Hz")
            points.append(measured)
        if not points[1] > points[0] * 2:
            fail(f"the −3 dB point did not move up with the cutoff: {points}")
        ActionChains(driver).key_up("a").perform()
        wait_for(lambda: js("frame.held") == [], what="A released ends the note")

        # Pointer multi-touch: two fingers on keys 4 and 7 (E and G of octave 3: 40, 43).
        def centre(testid):
            r = driver.execute_script(f"const r = document.querySelector('[data-testid=\"{testid}\"]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height * 0.85];")
            return r
        driver.execute_script("document.querySelector('[data-testid=\"hisynth-keyboard\"]').scrollIntoView({block: 'center'})")
        (x1, y1), (x2, y2) = centre("hisynth-key-4"), centre("hisynth-key-7")
        touch = lambda kind, pts: driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})
        touch("touchStart", [{"x": x1, "y": y1, "id": 1}, {"x": x2, "y": y2, "id": 2}])
        wait_for(lambda: js("frame.held") == [40, 43], what=f"two fingers hold 40 and 43 (held {js('frame.held')})")
        touch("touchEnd", [])
        wait_for(lambda: js("frame.held") == [], what="the fingers lift")

        # The song player: Tempo Study; the roll's bars are the song's notes at their times (mido reads the file).
        song = mido.MidiFile(song_path)
        notes, now_s = [], 0.0
        for message in song:    # merged tracks, delta times in seconds through the tempo map
            now_s += message.time
            if message.type == "note_on" and message.velocity > 0:
                notes.append((message.note, now_s))
        titles = [s["title"] for s in js("state.songs")]
        Select(by_testid(driver, "hisynth-song-list")).select_by_value(str(titles.index("Tempo Study")))
        deadline = time.monotonic() + GENEROUS   # the dummy JACK server runs slower than real time on a loaded machine
        while not (js("frame.player.playing") and js("frame.player.position") > 2.5):
            if time.monotonic() > deadline:
                fail(f"the song is not playing 2.5 s in: frame {js('frame.player')}, state song {js('state.song')} playing {js('state.playing')}")
            time.sleep(0.05)
        frame = js("frame")
        position, bars = frame["player"]["position"], frame["roll"]
        # (Bars that began before the song, from the keys played above, are not the song's.)
        bars = [b for b in bars if b[1] < position - 0.05]
        if len(bars) < 6:
            fail(f"the roll shows {len(bars)} bars of the song")
        for note, began, _, _ in bars:
            t = position - began
            if not any(n == note and abs(s - t) < 0.03 for n, s in notes):
                fail(f"roll bar: note {note} at {t:.3f} s is not a note of the song")
        lit = driver.execute_script("""const c = document.querySelector('[data-testid="hisynth-roll"]');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
            for (let i = 0; i < d.length; i += 4) if (d[i] > 60 && d[i + 2] > 150) n++; return n;""")
        if lit < 20:
            fail(f"the roll canvas shows no bars ({lit} px)")
        time.sleep(0.5)
        # The whole page: every panel of the rack.
        width, height = driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
        with open(screenshot, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        by_testid(driver, "hisynth-play").click()
        wait_for(lambda: not js("frame.player.playing"), what="stop")

        # MIDI into JACK's midi_in plays it: jack_midiseq loops note 76 every 0.25 s.
        seq = start(["jack_midiseq", "hsseq", "12000", "0", "76", "6000"])
        wait_for(lambda: "hsseq:" in subprocess.run(["jack_lsp"], env=env, capture_output=True, text=True).stdout, what="jack_midiseq's port")
        ports = subprocess.run(["jack_lsp"], env=env, capture_output=True, text=True).stdout.split("\n")
        out_port = next(p for p in ports if p.startswith("hsseq:"))
        in_port = next(p for p in ports if p.startswith("HiSynthRack:") and "midi_in" in p)
        subprocess.run(["jack_connect", out_port, in_port], env=env, check=True)
        wait_for(lambda: any(b[0] == 76 for b in js("frame.roll")), what="MIDI note 76 from JACK in the piano roll")
        stop(seq)

        errors = console_errors(driver)
        if errors:
            fail(f"console errors: {errors}")
    print(f"ok: spectrum −3 dB points {[round(p) for p in points]} Hz for LP cutoffs ≈2000/5000 Hz")
    passed = True
finally:
    children.stop_all(first=studio)
    if not passed:
        children.report()
    shutil.rmtree(f"/tmp/{server}-data", ignore_errors=True)
