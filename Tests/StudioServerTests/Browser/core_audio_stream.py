"""Browser audio in Chromium (`prospero studio --audio browser`): the tone page's "Tap to listen" starts
the AudioWorklet player; it plays the server's stream (the test tone's 1 kHz at -18 dBFS, read back
through the AnalyserNode the page exposes) with no lost frames and no dropout the delivery does not explain, its buffer fill near the
40 ms target, the latency shown on the indicator; a forced stall (frames held back 150 ms, then delivered
at once, as a stalled connection does) shows a dropout and playback recovers. Home shows the browser backend.
The player's drift correction (for a page whose device clock differs from the one the server follows) is run in
the page's JavaScript engine on the worklet's own code, offline and deterministic (DRIFT): 60 s of blocks into a
player whose clock runs 0.3 % fast, 0.3 % slow, or exactly right against the server's.
Usage: core_audio_stream.py URL   (prints "latency_ms=…" for the Swift test)"""
import math
import sys
import time

from core_browser import studio_browser, console_errors, by_testid, wait_for, fail

url = sys.argv[1].split("?")[0]

ANALYSE = """
const a = window.prosperoAudio.analyser;
const data = new Float32Array(a.fftSize);
a.getFloatTimeDomainData(data);
return {samples: Array.from(data), rate: window.prosperoAudio.context.sampleRate};"""


def tone_of(driver):
    """(RMS in dBFS, frequency in Hz from rising zero crossings) of the analyser's latest window."""
    got = driver.execute_script(ANALYSE)
    s, rate = got["samples"], got["rate"]
    rms = math.sqrt(sum(x * x for x in s) / len(s))
    rising = [i for i in range(1, len(s)) if s[i - 1] < 0 <= s[i]]
    if len(rising) < 3:
        return 20 * math.log10(max(rms, 1e-9)), 0.0
    # Interpolated crossing times, first to last.
    def at(i):
        return i - 1 + (-s[i - 1]) / (s[i] - s[i - 1])
    frequency = (len(rising) - 1) * rate / (at(rising[-1]) - at(rising[0]))
    return 20 * math.log10(max(rms, 1e-9)), frequency


# The worklet's PCMPlayer, loaded from /js/audio-worklet.js with stand-ins for the AudioWorkletGlobalScope, fed 256-frame
# blocks of a 1 kHz sine at 0.5 of full scale for `seconds` of the player's clock, which runs `skew` fast against the
# server's: a block arrives each time the server has rendered 256 frames, 128 / (1 + skew) per 128-sample quantum
# the player plays (skew 0: one block per two quanta). Returns what a listener would notice: dropouts, trims,
# the ratio and smoothed fill at the end, the smoothed fill's range after the first 20 s, the largest step between
# two output samples (a click), the last second's RMS, and for skew 0 whether the output is the input sample for sample.
DRIFT = """
const [skew, seconds, gain, done] = arguments;
(async () => {
  const source = await (await fetch('/js/audio-worklet.js')).text();
  let Player = null;
  class Processor { constructor() { this.port = { postMessage() {}, onmessage: null }; } }
  new Function('AudioWorkletProcessor', 'registerProcessor', 'sampleRate', source)(Processor, (name, c) => { Player = c; }, 48000);
  const p = new Player({ processorOptions: { targetMs: 40, maximumMs: 80, hardMaximumMs: 150 } });
  if (gain !== null) p.correctionGain = gain;
  const w = 2 * Math.PI * 1000 / 48000;
  let written = 0, read = 0, maxStep = 0, last = null, exact = true, sumSquares = 0, count = 0;
  let low = Infinity, high = -Infinity, ratioSum = 0, ratioCount = 0;
  const quanta = Math.round(seconds * 48000 / 128);
  let rendered = 0;   // server frames rendered and not yet delivered
  for (let q = 0; q < quanta; q++) {
    rendered += 128 / (1 + skew);
    if (rendered >= 256) {
      rendered -= 256;
      const left = new Float32Array(256), right = new Float32Array(256);
      for (let i = 0; i < 256; i++) { left[i] = right[i] = 0.5 * Math.sin(w * (written + i)); }
      written += 256;
      p.receive({ left, right });
    }
    const l = new Float32Array(128), r = new Float32Array(128);
    p.process([], [[l, r]]);
    for (let i = 0; i < 128; i++) {
      if (last !== null && p.gain >= 1) maxStep = Math.max(maxStep, Math.abs(l[i] - last));
      last = l[i];
      if (q * 128 + i >= (seconds - 1) * 48000) { sumSquares += l[i] * l[i]; count++; }
    }
    if (skew === 0 && p.playing) {
      // The copy path: the output is the input sample for sample (after the first quantum's 1 ms fade-in).
      for (let i = 0; i < 128; i++, read++) { if (read >= 128 && Math.fround(0.5 * Math.sin(w * read)) !== l[i]) exact = false; }
    }
    if (q * 128 >= 20 * 48000) { low = Math.min(low, p.smoothed); high = Math.max(high, p.smoothed); ratioSum += p.ratio; ratioCount++; }
  }
  const ms = (frames) => frames / 48;
  done({ dropouts: p.dropouts, overflows: p.overflows, ratio: p.ratio, meanRatio: ratioSum / ratioCount, fill: ms(p.smoothed), low: ms(low), high: ms(high),
         maxStep, rms: Math.sqrt(sumSquares / count), exact });
})();
"""


def drift_checks(driver):
    """The drift correction, offline in the page's engine (see DRIFT)."""
    sine_step = 0.5 * 2 * math.pi * 1000 / 48000   # the sine's largest step between samples
    for skew, fill_range in [(0.003, (20, 31)), (-0.003, (49, 60))]:
        got = driver.execute_async_script(DRIFT, skew, 60, None)
        expected = 1 / (1 + skew)
        if got["dropouts"] or got["overflows"]:
            fail(f"drift {skew:+.1%}: {got['dropouts']} dropouts, {got['overflows']} trims in 60 s")
        if abs(got["ratio"] - expected) > 1e-4:
            fail(f"drift {skew:+.1%}: ratio {got['ratio']:.5f} after 60 s, expected {expected:.5f}")
        # Blocks arrive whole, so the fill and the ratio ripple a little; their mean after 20 s is the settled ratio.
        if abs(got["meanRatio"] - expected) > 1e-5:
            fail(f"drift {skew:+.1%}: mean ratio {got['meanRatio']:.6f} after 20 s, expected {expected:.6f}")
        if not (fill_range[0] <= got["low"] and got["high"] <= fill_range[1]):
            fail(f"drift {skew:+.1%}: smoothed fill {got['low']:.1f}…{got['high']:.1f} ms after 20 s, expected within {fill_range} ms")
        if got["maxStep"] > sine_step * 1.02:
            fail(f"drift {skew:+.1%}: a step of {got['maxStep']:.4f} between output samples (a click; the sine's largest is {sine_step:.4f})")
        if abs(20 * math.log10(got["rms"] / (0.5 / math.sqrt(2)))) > 0.05:
            fail(f"drift {skew:+.1%}: the last second's RMS {got['rms']:.4f}, expected {0.5 / math.sqrt(2):.4f}")
        print(f"drift {skew:+.1%}: ratio {got['ratio']:.5f} (mean {got['meanRatio']:.6f}), fill {got['low']:.1f}…{got['high']:.1f} ms, no dropout, no trim")
    got = driver.execute_async_script(DRIFT, 0, 20, None)
    if got["ratio"] != 1 or not got["exact"] or got["dropouts"] or got["overflows"]:
        fail(f"no drift: ratio {got['ratio']}, output equal to the input: {got['exact']}, dropouts {got['dropouts']}, trims {got['overflows']}")
    # The same 0.3 % without the correction runs dry within the minute: what the checks above would catch.
    got = driver.execute_async_script(DRIFT, 0.003, 60, 0)
    if got["dropouts"] == 0:
        fail("drift +0.3 % without the correction: no dropout in 60 s (the simulation does not simulate drift)")


def stats(driver):
    return driver.execute_script("return window.prosperoAudio && window.prosperoAudio.stats()")


with studio_browser() as driver:
    driver.get(url + "tone/")
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection")
    by_testid(driver, "tone-reference").click()
    wait_for(lambda: by_testid(driver, "tone-readout").text == "1000 Hz, -18 dBFS", what="the tone on")
    listen = wait_for(lambda: by_testid(driver, "audio-listen"), what="the Listen control")
    if not listen.get_attribute("aria-label"):
        fail("the Listen control has no aria-label")
    listen.click()
    wait_for(lambda: (stats(driver) or {}).get("playing"), timeout=10, what="playback")
    # Steady playback for 20 s (after 1 s to settle): no lost frames, the fill near its target, and no dropout
    # unless the frames themselves stopped arriving for longer than the buffer holds (a machine so loaded that
    # delivery stalls; the page counts that wait as maxGapMs). On an idle machine: no dropouts at all.
    time.sleep(1.0)
    driver.execute_script("window.prosperoAudio.resetGapForTest()")
    before = stats(driver)
    time.sleep(20.0)
    after = stats(driver)
    if after["frames"] - before["frames"] < 3400:
        fail(f"only {after['frames'] - before['frames']} frames in 20 s (expected ~3750)")
    # The server keeps at most 64 blocks (341 ms) for a page that does not read (StudioOutboundQueue.binaryLimit) and
    # drops and counts the newer ones: frames are lost only when the page went that long without reading (a busy
    # machine held Chromium back: 32 lost once in a quiet fresh clone, beside the other suites). Any other loss fails.
    if after["lost"] != 0 and after["maxGapMs"] < 64 * 256 / 48:
        fail(f"{after['lost']} frames lost (sequence gaps) with frames never more than {after['maxGapMs']:.1f} ms apart")
    if after["dropouts"] != before["dropouts"] and after["maxGapMs"] < 30:
        fail(f"dropouts {before['dropouts']}→{after['dropouts']} with frames never more than {after['maxGapMs']:.1f} ms apart")
    print(f"steady: dropouts {after['dropouts'] - before['dropouts']}, {after['lost']} frames lost, longest wait between frames {after['maxGapMs']:.1f} ms")
    # Near the 40 ms target; after a delivery stall (a busy machine's: frames more than 60 ms apart, where a group of
    # blocks comes every 32 ms) the burst that follows may leave it higher, up to where the page trims a burst
    # (80 ms, as after the forced stall below).
    highest = 80 if after["maxGapMs"] >= 60 else 70
    if not 20 <= after["fillMs"] <= highest:
        fail(f"buffer fill {after['fillMs']:.1f} ms, expected near the 40 ms target (at most {highest} ms; "
             f"frames at most {after['maxGapMs']:.1f} ms apart)")
    level, frequency = tone_of(driver)
    # A -18 dBFS peak sine has an RMS of -21 dBFS.
    if abs(level - (-21.0)) > 1.0 or abs(frequency - 1000) > 10:
        fail(f"the analyser reads {level:.2f} dBFS RMS at {frequency:.1f} Hz, expected -21 dBFS at 1000 Hz")
    text = by_testid(driver, "audio-indicator-text").text
    latency = float(by_testid(driver, "audio-indicator").get_attribute("data-latency"))
    if "latency" not in text or not 20 <= latency <= 150:
        fail(f"indicator '{text}', latency {latency}")

    # A stall: frames held back 150 ms, then delivered in a burst.
    driver.execute_script("window.prosperoAudio.stallForTest(150)")
    wait_for(lambda: stats(driver)["dropouts"] > after["dropouts"], timeout=5, what="a dropout during the stall")
    wait_for(lambda: "dropouts 1" in by_testid(driver, "audio-indicator-text").text or
             by_testid(driver, "audio-indicator").get_attribute("data-dropouts") != "0", what="the dropout shown")
    wait_for(lambda: stats(driver)["playing"], timeout=5, what="playback after the stall")
    time.sleep(1.0)
    # The tone back at its level: an analyser window that a busy machine's own dropout (counted above, apart from the
    # stall) cut short reads low, so the windows are read until one is whole, within 5 s of the machine's time.
    readings = []

    def recovered_tone():
        readings.append((*tone_of(driver), stats(driver)["playing"]))
        level, frequency, playing = readings[-1]
        return playing and abs(level - (-21.0)) <= 1.0 and abs(frequency - 1000) <= 10

    wait_for(recovered_tone, timeout=5, machine_time=True, what="the tone after the stall",
             describe=lambda: "the last readings (dBFS, Hz, playing): " + ", ".join(f"({l:.2f}, {f:.1f}, {p})" for l, f, p in readings[-5:]))
    recovered = stats(driver)
    if recovered["fillMs"] > 80:
        fail(f"after the stall the fill stayed at {recovered['fillMs']:.1f} ms (the burst was not trimmed)")

    # The simulation evaluates the worklet's file as a function: the test's own eval, which the pages' policy
    # (no unsafe-eval) rightly refuses. It runs in a fresh load of the page with the policy bypassed for the test.
    driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})
    driver.get(url + "tone/")
    drift_checks(driver)
    driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": False})

    # Home: the audio status names the browser backend and its latency.
    driver.get(url + "?noonboarding")
    wait_for(lambda: by_testid(driver, "audio-backend").text == "browser", what="Home's backend row")
    wait_for(lambda: by_testid(driver, "audio-latency").text.endswith("ms"), what="Home's latency row")
    wait_for(lambda: by_testid(driver, "audio-indicator").is_displayed(), what="the indicator on Home")
    errors = console_errors(driver)
    if errors:
        fail(f"console errors: {errors}")
print(f"latency_ms={latency:.1f}")
print("ok")
