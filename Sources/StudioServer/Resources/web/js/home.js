// Home: the instruments (select one, open its page), audio status, OSC sources, how to connect, panels.
import { StudioConnection } from "/js/studio.js";
import { OberonPanels } from "/js/panels.js";
import { element, button, ago } from "/js/ui.js";
import { showOnboarding } from "/js/onboarding.js";

const studio = new StudioConnection({ subscribe: ["state", "status", "meters", "scope", "spectrum"] });
window.studio = studio;  // for tests and the console
new OberonPanels(document.getElementById("panels"), studio);

let active = null;
let instruments = [];
// The games' pages live under /games/ (games-haptics).
const GAMES = new Set(["harmony", "vibe", "touch"]);
const pagePath = (id) => (GAMES.has(id) ? `/games/${id}/` : `/${id}/`);

function renderInstruments() {
  const list = document.getElementById("instrument-list");
  list.replaceChildren();
  document.getElementById("no-instruments").hidden = instruments.length > 0;
  for (const it of instruments) {
    const isActive = it.id === active;
    const li = element("li", { class: isActive ? "active" : "", testid: `instrument-${it.id}` },
      element("span", { class: "name grow", text: it.name }),
      button(isActive ? "Active" : "Play", {
        label: `Make ${it.name} the active instrument`, testid: `select-${it.id}`, pressed: isActive,
        onclick: () => studio.select(it.id),
      }),
      element("a", { href: pagePath(it.id), "aria-label": `Open ${it.name}`, "data-testid": `open-${it.id}`, text: "Open" }));
    list.append(li);
  }
}

function renderAudio(audio) {
  const facts = document.getElementById("audio-facts");
  const rows = [["Backend", audio.backend]];
  if (audio.backend === "jack") {
    rows.push(["JACK client", audio.client ?? "—"], ["Ports", (audio.ports ?? []).join(", ") || "—"],
      ["Rate", `${audio.rate} Hz`], ["Period", `${audio.period} frames`],
      ["Latency", `${Number(audio.latencyMs).toFixed(2)} ms`], ["Xruns", String(audio.xruns)],
      ["DSP load", `${Number(audio.cpuLoad).toFixed(1)} %`]);
    if (audio.latencyLine) rows.push(["Latency path", audio.latencyLine]);
    if (audio.route) rows.push(["Output route", audio.route]);
  } else if (audio.backend === "browser") {
    // Streamed to the pages that tap Listen; latency = one block + the listening page's buffer and device.
    const here = window.prosperoAudio?.context ? window.prosperoAudio : null;
    rows.push(["Rate", `${audio.rate} Hz`], ["Block", `${audio.period} frames`],
      ["Latency", `${Number(audio.latencyMs).toFixed(1)} ms${here ? ` (this page ${Math.round(here.latencyMs)} ms)` : ""}`],
      ["Dropouts", String(audio.xruns)], ["Listeners", String(audio.listeners ?? 0)],
      ["Rate steering", `${Number(audio.ratePPM ?? 0).toFixed(1)} ppm`], ["Render load", `${Number(audio.cpuLoad).toFixed(1)} %`]);
  }
  facts.replaceChildren(...rows.flatMap(([k, v]) => [element("dt", { text: k }), element("dd", { text: v, testid: `audio-${k.toLowerCase().replace(/\W+/g, "-")}` })]));
  document.getElementById("audio-note").textContent = audio.note ?? "";
}

function renderSources(sources) {
  const body = document.getElementById("source-rows");
  body.replaceChildren(...sources.map((s) => element("tr", { testid: "source-row" },
    element("td", { class: "mono", text: s.sender }), element("td", { text: s.format }),
    element("td", { text: String(s.packets) }), element("td", { text: ago(s.lastSeen) }))));
  document.getElementById("no-sources").hidden = sources.length > 0;
}

studio.on("connection", (online) => {
  const c = document.getElementById("connection");
  c.classList.toggle("online", online);
  c.textContent = online ? "connected" : "server lost — reconnecting";
});
studio.on("welcome", (m) => {
  instruments = m.instruments;
  active = m.instrument;
  renderInstruments();
  renderAudio(m.audio);
  const info = m.info ?? {};
  document.getElementById("page-url").textContent = location.origin + "/";
  document.getElementById("osc-address").textContent = info.osc ?? "—";
  const lan = document.getElementById("lan-url");
  lan.replaceChildren(info.lanURL ? element("code", { text: info.lanURL })
    : element("span", { class: "muted", text: "serving on loopback only: start with --host 0.0.0.0 (a token is made)" }));
});
studio.on("state", (m) => { active = m.instrument; renderInstruments(); });
studio.on("status", (m) => { renderAudio(m.audio); renderSources(m.sources); });

document.getElementById("help").addEventListener("click", () => showOnboarding({ force: true }));
if (!new URLSearchParams(location.search).has("noonboarding")) showOnboarding();
studio.connect();
