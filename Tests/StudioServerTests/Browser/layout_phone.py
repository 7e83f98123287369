"""Every page at phone, tablet and desktop sizes (issue 26 item 1): for each page, each of its states (first-run
sheets, help, drawers, Immerse) and each viewport, read from the DOM that
  - the document never scrolls sideways (scrollWidth <= the viewport's width);
  - every visible control is on top where a finger lands: the element at its centre (scrolled into view) is the
    control or inside it, and nothing of it lies under the browser-audio bar;
  - on a touch viewport every control is at least 44 x 44 CSS px (a checkbox counts its label, the tap target).
Every page links the web app manifest (issue 26 item 8): standalone, a theme colour and icons that load at
their stated sizes. The 390 x 844 screenshots go to SCREENSHOT_DIR. Usage: layout_phone.py URL SCREENSHOT_DIR
(the studio must run with --audio browser, so that the audio bar shows)"""
import os
import sys
import time

from core_browser import studio_browser, console_errors, by_testid, wait_for

url, shots = sys.argv[1].rstrip("/"), sys.argv[2]

# (width, height, touch): phones portrait and landscape, a tablet, a laptop.
VIEWPORTS = [(360, 740, True), (390, 844, True), (844, 390, True), (768, 1024, True), (1366, 768, False)]
SHOT_SIZE = (390, 844)
MINIMUM = 44

# Each page: its path and its states in the order a person meets them on one visit: each state's name, the clicks
# (data-testid) that lead to it from the state before, and the part of the page a finger can reach in it (a modal
# sheet covers the rest on purpose; None: the whole page).
PAGES = [
    ("home", "/", [
        ("onboarding", [], "#onboarding"),
        ("page", ["onboarding-skip"], None),
    ]),
    ("hecate", "/hecate/", [
        ("guide", [], "#guide"),
        ("hud", ["guide-close"], None),
        ("meters", ["meters-toggle"], None),
        ("help", ["help-open"], "#help-overlay"),
        ("immerse", ["help-close", "mode-immerse"], "#immerse"),
    ]),
    ("hands", "/hands/", [
        ("pad", [], None),
        ("settings", ["hands-settings-toggle"], "#drawer"),
        ("help", ["hands-settings-toggle", "help-open"], "#help-overlay"),
    ]),
    ("hisynth", "/hisynth/", [
        ("welcome", [], "#welcome"),
        ("rack", ["hisynth-welcome-close"], None),
        ("tutorial", ["hisynth-logo", "hisynth-welcome-start"], "#step"),
    ]),
    ("tone", "/tone/", [
        ("page", [], None),
        ("help", ["help-open"], "#help-overlay"),
    ]),
] + [
    (game, f"/games/{game}/", [
        ("start", [], "#start"),
        ("play", ["game-start-button"], None),
    ]) for game in ("harmony", "vibe", "touch")
]

# One pass over the page in the browser: returns a list of problems (strings).
CHECK = r"""
const [width, height, touch, rootSelector, minimum] = arguments;
const problems = [];
const doc = document.documentElement;
if (doc.scrollWidth > width) problems.push(`the document is ${doc.scrollWidth} px wide`);
const root = rootSelector ? document.querySelector(rootSelector) : document.body;
if (!root) return [`no ${rootSelector}`];
const bar = document.getElementById("browser-audio");
const barShown = bar && bar.checkVisibility();
const name = (e) => e.dataset.testid || e.id || e.getAttribute("aria-label") || e.outerHTML.slice(0, 60);
const controls = [...root.querySelectorAll(
  "a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=slider], [role=application], [role=switch]")]
  .filter((e) => e.checkVisibility({ checkVisibilityCSS: true }) && !e.closest("[inert]"))
  .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; });
if (bar && barShown && root !== document.body && !root.contains(bar)) {
  // A modal sheet: the bar may stay visible, but never over the sheet's controls.
}
for (const e of controls) {
  e.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  const r = e.getBoundingClientRect();
  const x = Math.min(Math.max(r.left + r.width / 2, 0), width - 1), y = Math.min(Math.max(r.top + r.height / 2, 0), height - 1);
  const hit = document.elementFromPoint(x, y);
  if (!hit || !(hit === e || e.contains(hit))) {
    problems.push(`${name(e)}: under ${hit ? name(hit) : "nothing"} at (${Math.round(x)}, ${Math.round(y)})`);
  }
  if (barShown && !bar.contains(e)) {
    const b = bar.getBoundingClientRect();
    if (r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top) problems.push(`${name(e)}: the audio bar covers it`);
  }
  if (touch) {
    // A checkbox or radio inside a label: the label is what a finger taps.
    const label = (e.type === "checkbox" || e.type === "radio") ? e.closest("label") : null;
    const t = (label ?? e).getBoundingClientRect();
    if (t.width < minimum - 0.5 || t.height < minimum - 0.5) problems.push(`${name(e)}: ${Math.round(t.width)}x${Math.round(t.height)} px`);
  }
}
window.scrollTo(0, 0);
return problems;
"""


def emulate(driver, width, height, touch):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": touch})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": touch, "maxTouchPoints": 5 if touch else 1})


def screenshot(driver, path):
    """Saves a screenshot (a renderer busy with Immerse's WebGL in SwiftShader on a loaded machine has the harness's
    generous bound to answer)."""
    driver.save_screenshot(path)


SETTLE = r"""
const done = arguments[arguments.length - 1];
const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
(async () => {
  await document.fonts.ready;
  await frames();
  // Transitions and animations the click started (a drawer sliding in, a game's target scaling) run to their end;
  // endless ones (a spinner) are left running. At most 3 s.
  const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
  await Promise.race([Promise.allSettled(finite.map((a) => a.finished)), new Promise((r) => setTimeout(r, 3000))]);
  await frames();
})().then(() => done(), () => done());
"""


def settle(driver, loaded):
    """Fonts loaded, two animation frames (canvases fit), the transitions a click started run to their end. A page
    just loaded also gets 0.3 s for the lists its first state messages draw."""
    if loaded:
        time.sleep(0.3)
    driver.execute_async_script(SETTLE)


# PROSPERO_LAYOUT_PAGE=hecate checks one page only (when working on it).
if os.environ.get("PROSPERO_LAYOUT_PAGE"):
    PAGES = [p for p in PAGES if p[0] == os.environ["PROSPERO_LAYOUT_PAGE"]]
MANIFEST = r"""
const done = arguments[arguments.length - 1];
(async () => {
  const link = document.querySelector("link[rel=manifest]");
  if (!link) return ["no manifest link"];
  const m = await (await fetch(link.href)).json();
  const problems = [];
  if (m.display !== "standalone") problems.push(`display ${m.display}`);
  if (!/^#[0-9a-fA-F]{6}$/.test(m.theme_color ?? "")) problems.push(`theme_color ${m.theme_color}`);
  if (!m.name || !m.short_name || m.start_url !== "/") problems.push("name, short_name or start_url");
  for (const icon of m.icons ?? []) {
    const img = new Image();
    img.src = icon.src;
    try { await img.decode(); } catch { problems.push(`${icon.src} does not load`); continue; }
    if (icon.sizes !== "any" && icon.sizes !== `${img.naturalWidth}x${img.naturalHeight}`) problems.push(`${icon.src} is ${img.naturalWidth}x${img.naturalHeight}, says ${icon.sizes}`);
  }
  if (!(m.icons ?? []).some((i) => i.sizes === "512x512" && i.type === "image/png")) problems.push("no 512 px PNG icon");
  return problems;
})().then(done, (e) => done([String(e)]));
"""

problems = []
with studio_browser(width=1366, height=900) as driver:
    # Forty page loads on a machine that may be busy building: a slow renderer is waited for, not failed.
    driver.set_page_load_timeout(90)
    driver.set_script_timeout(30)
    driver.get(f"{url}/")
    problems += [f"manifest: {p}" for p in driver.execute_async_script(MANIFEST)]
    for width, height, touch in VIEWPORTS:
        emulate(driver, width, height, touch)
        for page, path, states in PAGES:
            driver.get(f"{url}{path}")
            wait_for(lambda: driver.execute_script(
                "const c = document.querySelector('[data-testid=connection-state]');"
                "return document.readyState === 'complete' && (!c || c.textContent === 'connected');"), what=f"{page}: connected")
            wait_for(lambda: driver.execute_script(
                "const b = document.getElementById('browser-audio'); return b && !b.hidden;"), what=f"{page}: the audio bar")
            if not driver.execute_script("return document.querySelector('link[rel=manifest]')?.getAttribute('href') === '/manifest.json'"):
                problems.append(f"{page}: no link to /manifest.json")
            # The page's instrument made active, so that its controls are all drawn.
            driver.execute_script(
                "const n = document.getElementById('not-active'); if (n && !n.hidden) document.getElementById('activate').click();")
            wait_for(lambda: driver.execute_script(
                "const n = document.getElementById('not-active'); return !n || n.hidden;"), what=f"{page}: active")
            for index, (state, clicks, root) in enumerate(states):
                for testid in clicks:
                    element = wait_for(lambda: (e := by_testid(driver, testid)).is_displayed() and e, what=f"{page}: {testid}")
                    driver.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", element)
                    element.click()   # a real click: the games' vibration needs a user gesture
                settle(driver, loaded=index == 0)
                found = driver.execute_script(CHECK, width, height, touch, root, MINIMUM)
                problems += [f"{page}/{state} at {width}x{height}: {p}" for p in found]
                if (width, height) == SHOT_SIZE:
                    screenshot(driver, os.path.join(shots, f"{page}-{state}.png"))
            driver.execute_script("localStorage.clear();")   # the next visit is a first visit again
            errors = console_errors(driver)
            if errors:
                problems.append(f"{page} at {width}x{height}: console errors {errors}")
if problems:
    for p in problems:
        print(f"FAIL: {p}")
    sys.exit(1)
print("ok")
