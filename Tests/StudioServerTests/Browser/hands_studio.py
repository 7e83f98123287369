"""The hands and touch screen end to end, in headless Chromium against a real `prospero studio --audio jack`
on a dummy JACK server, with `jack_midi_dump` reading the studio's midi_out and python-osc sending a hand.

Checks: the page loads with no console errors; every control has an aria-label and a data-testid; pointer
events on the pad (touch points through the DevTools protocol, and a mouse) play the fret's note: the
server's frame shows it, the synth's engine snapshot holds it, and the MIDI note-on reaches jack_midi_dump;
lifting ends it; `pointercancel` ends it; a fifth finger is ignored (four touch slots); a finger held when
the page goes away ends its note; an OSC hand appears as a skeleton; a key change moves the frets.
Then a screenshot with two fingers and a hand.

Every process this script starts is stopped by its pid (SIGINT/SIGTERM, never a name).
Usage: hands_studio.py PROSPERO SCREENSHOT.png"""
import base64
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import uuid

from core_browser import GENEROUS, studio_browser, console_errors, by_testid, wait_for, fail
from children import Children
from selenium.webdriver.common.action_chains import ActionChains
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.support.ui import Select

prospero, screenshot = sys.argv[1], sys.argv[2]
server = f"hands{uuid.uuid4().hex[:8]}"
env = dict(os.environ, JACK_DEFAULT_SERVER=server, JACK_NO_AUDIO_RESERVATION="1")
children = Children(env, server)
start = children.start


def dump_messages(reader):
    """jack_midi_dump lines "frame: 90 45 7f" → [[0x90, 0x45, 0x7f], …]."""
    out = []
    for line in reader.lines:
        head, _, rest = line.partition(":")
        if not head.strip().isdigit():
            continue
        data = [int(t, 16) for t in rest.split() if re.fullmatch(r"[0-9a-fA-F]{2}", t)]
        if data:
            out.append(data)
    return out


def note_ons(reader, note):
    return [m for m in dump_messages(reader) if len(m) == 3 and m[0] & 0xF0 == 0x90 and m[1] == note and m[2] > 0]


def note_offs(reader, note):
    return [m for m in dump_messages(reader)
            if len(m) == 3 and m[1] == note and (m[0] & 0xF0 == 0x80 or (m[0] & 0xF0 == 0x90 and m[2] == 0))]


def wait_midi(condition, what, timeout=GENEROUS):
    """Waits for MIDI at jack_midi_dump; on failure says everything it saw."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    fail(f"timed out waiting for {what}; jack_midi_dump printed {dump_out.lines}")


studio = None
passed = False
try:
    children.start_jackd()
    dump = None
    # Line-buffered, so what arrives can be read while the test runs (a pipe would hold it until exit).
    dump = start((["stdbuf", "-oL"] if shutil.which("stdbuf") else []) + ["jack_midi_dump", "-a", "handsdump"])
    dump_out = children.reader(dump)
    for _ in range(100):
        if "handsdump:input" in subprocess.run(["jack_lsp"], env=env, capture_output=True, text=True).stdout:
            break
        time.sleep(0.1)
    else:
        fail("jack_midi_dump never showed its port")

    # --no-settings: the dials and panels this test turns must not reach (or come from) the user's settings file.
    studio = start([prospero, "studio", "--audio", "jack", "--port", "0", "--osc-port", "0", "--no-qr", "--no-settings",
                    "--client-name", "HandsStudio", "--no-connect-audio", "--midi-out", "handsdump:input"])
    studio_out = children.reader(studio)
    url = wait_for(lambda: next((m.group(0) for l in studio_out.lines for m in [re.search(r"http://127\.0\.0\.1:\d+/\S*", l)] if m), None), what=f"the studio's URL (output so far: {studio_out.text()})")
    base = url.split("?")[0].rstrip("/")
    osc_port = wait_for(lambda: next((int(m.group(1)) for l in studio_out.lines for m in [re.search(r"udp 127\.0\.0\.1:(\d+)", l)] if m), None), what=f"the OSC port (output: {studio_out.text()})")

    with studio_browser(width=1280, height=860) as driver:
        driver.get(base + "/hands/")
        wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection")
        if by_testid(driver, "not-active").is_displayed():
            by_testid(driver, "hands-activate").click()
        wait_for(lambda: driver.execute_script("return window.hands.state.frets.length") == 11, what="the frets (11 zones)")
        wait_for(lambda: not by_testid(driver, "not-active").is_displayed(), what="hands active")

        # Every control: aria-label and data-testid.
        bare = driver.execute_script("""
            return [...document.querySelectorAll('button, input, select, a, canvas, [role=application], [role=img]')]
              .filter(e => !e.getAttribute('aria-label') || !e.dataset.testid).map(e => e.outerHTML.slice(0, 80));""")
        if bare:
            fail(f"controls without aria-label or data-testid: {bare}")
        if driver.execute_script("return getComputedStyle(document.querySelector('#pad')).touchAction") != "none":
            fail("the pad lacks touch-action: none")

        driver.execute_script("""
            window.__events = [];
            for (const t of ['pointerdown', 'pointerup', 'pointercancel'])
              document.querySelector('#pad').addEventListener(t, (e) => window.__events.push(t + ':' + e.pointerType));""")
        # The pad lies between the header bar and the HUD (no label under a link or a dial: the hands.png review);
        # touch points are placed in the pad's own 0…1 space, the space the router's zones use.
        left, top, pw, ph = driver.execute_script(
            "const r = document.querySelector('#pad').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
        bar_bottom, hud_top = driver.execute_script(
            "return [document.querySelector('header.hands-bar').getBoundingClientRect().bottom,"
            " document.querySelector('footer.hands-hud').getBoundingClientRect().top]")
        if top < bar_bottom - 0.5 or top + ph > hud_top + 0.5 or ph < 300:
            fail(f"the pad spans {top}…{top + ph} px, under the header bar (ends at {bar_bottom}) or the HUD (starts at {hud_top})")
        at = lambda fx, fy: {"x": left + pw * fx, "y": top + ph * fy}
        hud = lambda what: driver.execute_script(f"return window.hands.hud.{what}")
        touch = lambda kind, points: driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        # Output both: the built-in synth and JACK midi_out.
        by_testid(driver, "hands-settings-toggle").click()
        Select(by_testid(driver, "hands-output")).select_by_value("both")
        wait_for(lambda: driver.execute_script("return window.hands.state.output") == "both", what="output both")
        by_testid(driver, "hands-settings-toggle").click()

        # One finger at 10 % from the top: zone ⌊0.9 × 11⌋ = 9 → A4 (69) in C major pentatonic 48…72.
        touch("touchStart", [{**at(0.5, 0.1), "id": 1}])
        wait_for(lambda: [n["note"] for n in hud("notes")] == [69], what="note 69 in the frame")
        wait_for(lambda: 69 in hud("synthNotes"), what="note 69 held in the synth's engine snapshot")
        wait_midi(lambda: note_ons(dump_out, 69), "a note-on 69 at jack_midi_dump")
        touch("touchEnd", [])
        wait_for(lambda: hud("notes") == [], what="the note to end on lift")
        wait_midi(lambda: note_offs(dump_out, 69), "a note-off 69 at jack_midi_dump")
        wait_for(lambda: hud("synthNotes") == [], what="the synth to let go")

        # pointercancel (the browser takes the gesture) ends the note too: zone ⌊0.5 × 11⌋ = 5 → C4 (60).
        touch("touchStart", [{**at(0.5, 0.5), "id": 2}])
        wait_for(lambda: [n["note"] for n in hud("notes")] == [60], what="note 60")
        touch("touchCancel", [])
        wait_for(lambda: "pointercancel:touch" in driver.execute_script("return window.__events"), what="a pointercancel")
        wait_for(lambda: hud("notes") == [], what="the note to end on pointercancel")
        wait_midi(lambda: note_offs(dump_out, 60), "a note-off 60 at jack_midi_dump")

        # Five fingers: four slots sound, the fifth is ignored.
        ys = [0.05, 0.3, 0.5, 0.7, 0.95]   # zones 10, 7, 5, 3, 0 → 72, 64, 60, 55, (48 ignored)
        touch("touchStart", [{**at((0.2 + 0.15 * k), y), "id": 10 + k} for k, y in enumerate(ys)])
        wait_for(lambda: sorted(n["note"] for n in hud("notes")) == [55, 60, 64, 72], what="four notes, the fifth finger ignored")
        time.sleep(0.3)
        if 48 in [n["note"] for n in hud("notes")]:
            fail("the fifth finger sounded")
        touch("touchEnd", [])
        wait_for(lambda: hud("notes") == [], what="every note to end")

        # A mouse plays too (pointerType mouse); the velocity dial's needle is its setting (84, at 210° + 300° ×
        # 84/127: the seed's 210°–510° sweep), and the brass mark on its rim shows the note's velocity, gone when it ends.
        pad = by_testid(driver, "hands-pad")
        dial = by_testid(driver, "hands-dial-velocity")
        wait_for(lambda: dial.get_attribute("aria-valuenow") == "84", what="the velocity dial at its default 84")
        ActionChains(driver).move_to_element_with_offset(pad, 0, int(-ph * 0.4)).click_and_hold().perform()
        wait_for(lambda: [n["note"] for n in hud("notes")] == [69], what="note 69 from the mouse")
        live = wait_for(lambda: float(dial.get_attribute("data-live") or 0), what="the velocity dial's live mark")
        velocity = hud("notes")[0]["velocity"]
        if abs(live - velocity / 127) > 0.002:
            fail(f"velocity mark {live}, note velocity {velocity}")
        angle = float(dial.get_attribute("data-angle"))
        if abs(angle - (210 + 300 * 84 / 127)) > 0.1:
            fail(f"needle at {angle}° for the setting 84")
        ActionChains(driver).release().perform()
        wait_for(lambda: hud("notes") == [], what="the mouse note to end")
        wait_for(lambda: dial.get_attribute("data-live") == "0.000", what="the live mark gone")

        # Velocity without pressure (js/touch-force.js): a touch that reports no force plays by its contact's
        # size (CDP's radius is half the pointer's width), a mouse by its speed in the 80 ms before the press.
        def velocity_of(press, release, what):
            press()
            notes = wait_for(lambda: hud("notes"), what=f"a note from {what}")
            source = driver.execute_script("return document.querySelector('#pad').dataset.forceSource")
            release()
            wait_for(lambda: hud("notes") == [], what=f"the note of {what} to end")
            return notes[0]["velocity"], source
        def contact(radius, ident):
            return lambda: touch("touchStart", [{**at(0.5, 0.5), "id": ident, "radiusX": radius, "radiusY": radius, "force": 0}])
        light, light_source = velocity_of(contact(3, 30), lambda: touch("touchEnd", []), "a fingertip")
        firm, firm_source = velocity_of(contact(15, 31), lambda: touch("touchEnd", []), "a flat finger")
        if light_source != "contact" or firm_source != "contact":
            fail(f"touches without force played by {light_source}, {firm_source}, not by the contact's size")
        if not firm >= light + 40:
            fail(f"a 30 px contact played velocity {firm}, a 6 px one {light}: the size does not reach the velocity")
        # The mouse's approach is given as synthetic pointer events from the page itself, so the speed the page
        # measures is the script's (its event times), not the test driver's round trips on a loaded machine.
        approach = """
            const [steps, stepPx, gapMs] = arguments;
            const pad = document.querySelector('#pad'), r = pad.getBoundingClientRect();
            const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
            const at = (type, x, buttons) => pad.dispatchEvent(new PointerEvent(type, {
              pointerId: 41, pointerType: 'mouse', isPrimary: true, clientX: x, clientY: cy, buttons,
              pressure: buttons ? 0.5 : 0, bubbles: true, cancelable: true }));
            const done = arguments[arguments.length - 1];
            let k = steps;
            const next = () => {
              if (k > 0) { at('pointermove', cx - stepPx * k, 0); k -= 1; setTimeout(next, gapMs); }
              else { at('pointerdown', cx, 1); done(); }
            };
            next();"""
        lift = lambda: driver.execute_script("""
            const pad = document.querySelector('#pad'), r = pad.getBoundingClientRect();
            pad.dispatchEvent(new PointerEvent('pointerup', { pointerId: 41, pointerType: 'mouse', isPrimary: true,
              clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true }));""")
        strike = lambda: driver.execute_async_script(approach, 5, 40, 4)        # 200 px in 20 ms: 10 px/ms
        press_slowly = lambda: driver.execute_async_script(approach, 5, 1, 25)  # 1 px every 25 ms: 0.04 px/ms
        release = lift
        fast, fast_source = velocity_of(strike, release, "a mouse strike")
        slow, slow_source = velocity_of(press_slowly, release, "a slow mouse press")
        if fast_source != "speed" or slow_source != "speed":
            fail(f"mouse presses played by {fast_source}, {slow_source}, not by the approach speed")
        if not fast >= slow + 40:
            fail(f"a mouse strike played velocity {fast}, a slow press {slow}: the speed does not reach the velocity")
        print(f"velocity without pressure: contact 6 px {light}, 30 px {firm}; mouse slow {slow}, strike {fast}", flush=True)

        # The dials turn as knobs (seed 001). Keyboard: arrows ±1, Page Up/Down ±10, Home/End the ends; each step
        # goes through the protocol's set and comes back as the state.
        from selenium.webdriver.common.keys import Keys
        state = lambda key: driver.execute_script(f"return window.hands.state[{key!r}]")
        mod_dial = by_testid(driver, "hands-dial-mod")
        for d in (dial, mod_dial):
            if d.get_attribute("role") != "slider" or d.get_attribute("tabindex") != "0":
                fail(f"{d.get_attribute('data-testid')} is not a focusable slider")
            w, h = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", d)
            if w < 44 or h < 44:
                fail(f"{d.get_attribute('data-testid')} is {w}×{h} px, under 44")
        for keys, expected in [((Keys.ARROW_UP,), 85), ((Keys.PAGE_DOWN,), 75), ((Keys.END,), 127), ((Keys.HOME,), 40),
                               ((Keys.ARROW_RIGHT, Keys.ARROW_RIGHT), 42), ((Keys.ARROW_DOWN,), 41)]:
            dial.send_keys(*keys)
            wait_for(lambda: state("velocity") == expected, what=f"velocity {expected} after {keys}")
            if dial.get_attribute("aria-valuenow") != str(expected):
                fail(f"aria-valuenow {dial.get_attribute('aria-valuenow')} for velocity {expected}")

        # A finger that measures nothing (no pressure, a 1×1 contact, no approach: iOS Safari's first touch) plays
        # the dial's velocity exactly.
        unmeasured = lambda: driver.execute_script("""
            const pad = document.querySelector('#pad'), r = pad.getBoundingClientRect();
            pad.dispatchEvent(new PointerEvent('pointerdown', { pointerId: 77, pointerType: 'touch', isPrimary: true,
              clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, width: 1, height: 1, pressure: 0.5,
              buttons: 1, bubbles: true, cancelable: true }));""")
        lift_touch = lambda: driver.execute_script("""
            const pad = document.querySelector('#pad'), r = pad.getBoundingClientRect();
            pad.dispatchEvent(new PointerEvent('pointerup', { pointerId: 77, pointerType: 'touch', isPrimary: true,
              clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true }));""")
        for setting in (41, 127):
            if setting == 127:
                dial.send_keys(Keys.END)
                wait_for(lambda: state("velocity") == 127, what="velocity 127")
            played, source = velocity_of(unmeasured, lift_touch, f"an unmeasured touch at the dial's {setting}")
            if source != "none" or played != setting:
                fail(f"an unmeasured touch ({source}) played velocity {played}, the dial says {setting}")
        # (jack_midi_dump's decoded text follows the bytes: its decimal "41" would read as a fourth byte.)
        wait_midi(lambda: any(m[0] & 0xF0 == 0x90 and m[2] == 41 for m in dump_messages(dump_out) if len(m) >= 3),
                  "the dial's velocity 41 in a note-on at jack_midi_dump")

        # Two fingers twisting on the velocity dial (Chromium's touch points): 60° clockwise is 60/300 of the range.
        dial.send_keys(Keys.HOME)
        wait_for(lambda: state("velocity") == 40, what="velocity 40")
        cx, cy = driver.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]", dial)
        import math
        def fingers(degrees, radius=18):
            a = math.radians(degrees)
            dx, dy = radius * math.sin(a), -radius * math.cos(a)
            return [{"x": cx - dx, "y": cy - dy, "id": 50}, {"x": cx + dx, "y": cy + dy, "id": 51}]
        touch("touchStart", fingers(90))
        for k in range(1, 13):
            touch("touchMove", fingers(90 + 5 * k))
            time.sleep(0.02)
        touch("touchEnd", [])
        twisted = 40 + 60 / 300 * (127 - 40)
        wait_for(lambda: abs(state("velocity") - twisted) <= 2, what=f"velocity ≈ {twisted:.1f} after a 60° twist (it is {state('velocity')})")
        if hud("notes"):
            fail("a twist on the dial played the pad")

        # Dragging the mod dial up with the mouse: 80 px of the 160 px range is about half of 0…127. The mod wheel
        # reaches the synth as its LFO depth and jack_midi_dump as CC 1 on channel 1.
        ActionChains(driver).move_to_element(mod_dial).click_and_hold().move_by_offset(0, -80).release().perform()
        mod = wait_for(lambda: state("mod") if state("mod") >= 40 else None, what=f"the mod dial dragged up (it is {state('mod')})")
        time.sleep(0.3)
        mod = state("mod")
        if mod_dial.get_attribute("aria-valuenow") != str(mod):
            fail(f"mod dial aria-valuenow {mod_dial.get_attribute('aria-valuenow')}, state {mod}")
        if abs(state("synth.lfoDepth") - mod / 127) > 1e-6:
            fail(f"synth LFO depth {state('synth.lfoDepth')} for mod {mod}")
        wait_midi(lambda: [0xB0, 1, mod] in [m[:3] for m in dump_messages(dump_out)], f"CC 1 = {mod} at jack_midi_dump")
        # With Shift held the same drag moves it a fifth as far.
        before = mod
        ActionChains(driver).key_down(Keys.SHIFT).move_to_element(mod_dial).click_and_hold().move_by_offset(0, 40) \
            .release().key_up(Keys.SHIFT).perform()
        wait_for(lambda: state("mod") < before, what="the fine drag down")
        time.sleep(0.3)
        fine = before - state("mod")
        if not 3 <= fine <= 10:   # 40 px × 127/160 × 0.2 ≈ 6
            fail(f"a 40 px fine drag moved the mod dial by {fine}")
        print(f"knobs: keyboard, twist (velocity {state('velocity')} for {twisted:.1f}), drag (mod {before}), fine drag −{fine}", flush=True)

        # The dials are the server's: a reloaded page (a reconnection) shows them again.
        settings_now = (state("velocity"), state("mod"))
        driver.refresh()
        wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection after reloading")
        wait_for(lambda: (by_testid(driver, "hands-dial-velocity").get_attribute("aria-valuenow"),
                          by_testid(driver, "hands-dial-mod").get_attribute("aria-valuenow")) == tuple(map(str, settings_now)),
                 what=f"the dials at {settings_now} after reloading")
        dial = by_testid(driver, "hands-dial-velocity")
        pad = by_testid(driver, "hands-pad")

        # A key change moves the frets: D major pentatonic over 48…72 has 10 zones.
        by_testid(driver, "hands-settings-toggle").click()
        Select(by_testid(driver, "hands-key")).select_by_value("D")
        wait_for(lambda: driver.execute_script("return window.hands.state.frets.length") == 10, what="D's 10 frets")
        Select(by_testid(driver, "hands-key")).select_by_value("C")
        wait_for(lambda: driver.execute_script("return window.hands.state.frets.length") == 11, what="C's 11 frets")
        # Output both: the synth panel stays; midi alone hides it.
        Select(by_testid(driver, "hands-output")).select_by_value("midi")
        wait_for(lambda: not by_testid(driver, "hands-synth-panel").is_displayed(), what="the synth panel to hide for MIDI only")
        Select(by_testid(driver, "hands-output")).select_by_value("both")
        wait_for(lambda: by_testid(driver, "hands-synth-panel").is_displayed(), what="the synth panel for both")
        Select(by_testid(driver, "hands-synth-waveform")).select_by_value("triangle")
        wait_for(lambda: driver.execute_script("return window.hands.state['synth.waveform']") == "triangle", what="the waveform")

        # An OSC hand (python-osc) appears as a skeleton in the pad's space, and plays.
        from pythonosc.udp_client import SimpleUDPClient
        osc = SimpleUDPClient("127.0.0.1", osc_port)
        sending = threading.Event()

        def hand_points(cx, cy):
            p = [None] * 21
            p[0] = (cx, cy + 0.09)
            for f, dx in {1: -0.06, 2: -0.02, 3: 0.02, 4: 0.06}.items():
                m = 1 + 4 * f
                p[m] = (cx + dx, cy - 0.02); p[m + 1] = (cx + dx * 1.1, cy - 0.07)
                p[m + 2] = (cx + dx * 1.15, cy - 0.10); p[m + 3] = (cx + dx * 1.2, cy - 0.13)
            p[1] = (cx - 0.05, cy + 0.06); p[2] = (cx - 0.08, cy + 0.03); p[3] = (cx - 0.11, cy); p[4] = (cx - 0.14, cy - 0.02)
            return [v for x, y in p for v in (float(x), float(y), 0.0)]

        def send_hand():
            while not sending.is_set():
                osc.send_message("/prospero/hand", [1, "right", 0.95] + hand_points(0.56, 0.45))
                time.sleep(0.03)
            osc.send_message("/prospero/hand/end", [1])

        sender = threading.Thread(target=send_hand, daemon=True)
        sender.start()
        wait_for(lambda: len(hud("hands")) == 1 and len(hud("hands")[0]["landmarks"]) == 21, what="the hand skeleton")

        # Two fingers and the hand for the screenshot, settings open.
        touch("touchStart", [{**at(0.22, 0.22), "id": 30}, {**at(0.36, 0.62), "id": 31}])
        wait_for(lambda: len(hud("notes")) == 3, what="two fingers and the hand sounding")
        time.sleep(0.6)   # the dials' needles settle
        for attempt in range(3):   # a loaded machine's renderer may miss chromedriver's 10 s deadline
            try:
                shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
                with open(screenshot, "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
                break
            except TimeoutException:
                if attempt == 2:
                    raise
        touch("touchEnd", [])
        sending.set()
        sender.join()
        wait_for(lambda: hud("notes") == [] and hud("hands") == [], what="fingers and hand gone")

        errors = console_errors(driver)
        if errors:
            fail(f"console errors: {errors}")

        # A finger held while the page goes away: the server ends its note (socket lost).
        touch("touchStart", [{**at(0.5, 0.1), "id": 40}])
        wait_for(lambda: [n["note"] for n in hud("notes")] == [69], what="note 69 held")
        offs_before = len(note_offs(dump_out, 69))
    # The browser is gone (driver.quit closed the socket with the finger still down).
    wait_for(lambda: len(note_offs(dump_out, 69)) > offs_before, what="the held note to end when the page went away")
    print("ok")
    passed = True
finally:
    children.stop_all(first=studio)
    if not passed:
        children.report()
