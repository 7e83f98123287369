"""Every page of the studio under its Content-Security-Policy (self only, no inline script or style): the header is
on each page, the page works (its connection, where it has one, says "connected"), and Chromium reports no CSP
violation and no console error. A listener installed before any page script (through the DevTools protocol, which
CSP does not govern) collects `securitypolicyviolation` events; an inline script added at the end must be refused
and reported, so a listener that heard nothing is known to be listening.

    python3 core_csp.py http://127.0.0.1:PORT/
"""
import sys
import time
import urllib.request

from core_browser import by_testid, console_errors, fail, studio_browser, wait_for

base = sys.argv[1].rstrip("/")
PAGES = ["/", "/tone/", "/hecate/", "/hands/", "/hisynth/", "/games/harmony/", "/games/vibe/", "/games/touch/"]
EXPECTED = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""

for page in PAGES:
    with urllib.request.urlopen(base + page) as response:
        policy = response.headers.get("Content-Security-Policy")
        if policy != EXPECTED:
            fail(f"{page}: Content-Security-Policy is {policy!r}, not {EXPECTED!r}")

with studio_browser() as driver:
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LISTENER})
    for page in PAGES:
        driver.get(base + page)
        wait_for(lambda: driver.execute_script("return document.readyState") == "complete", what=f"{page} to load")
        if driver.find_elements("css selector", '[data-testid="connection-state"]'):
            wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what=f"{page}: the connection")
        # Module scripts, the shaders the Hecate page fetches, the worklet: give them time to run.
        time.sleep(1.0)
        violations = driver.execute_script("return window.__cspViolations")
        if violations is None:
            fail(f"{page}: the violation listener did not run")
        if violations:
            fail(f"{page}: CSP violations: {violations}")
        errors = console_errors(driver)
        if errors:
            fail(f"{page}: console errors: {errors}")
        print(f"{page}: no CSP violation, no console error", flush=True)

    # The listener hears a violation: an inline script is refused (it never runs) and reported.
    driver.execute_script("""
      const s = document.createElement("script");
      s.textContent = "window.__inlineRan = true;";
      document.body.appendChild(s);
    """)
    reported = wait_for(lambda: driver.execute_script("return window.__cspViolations"), what="the inline script's report")
    if driver.execute_script("return window.__inlineRan === true"):
        fail("an inline script ran despite the policy")
    if not any(v.startswith("script-src") for v in reported):
        fail(f"the inline script was not reported as a script-src violation: {reported}")
    print(f"an inline script is refused and reported: {reported[0]}", flush=True)
