// One "is this page's instrument the active one" helper for every instrument page: the page's
// #not-active notice shows while another instrument plays, its #activate button makes this one active,
// and the server's state and changes for this instrument reach the page's `apply`.
//
//   import { followActive } from "/js/active.js";
//   followActive(studio, "hands", { state: (s) => applyState(s), changed: (c) => applyState(c) });

/**
 * Wires `studio` (a StudioConnection) for instrument `id`: `state(fullState)` on every state message while
 * `id` is active, `changed(changes)` on its changes (default: `state`), `inactive()` when another instrument
 * is active. Returns `isActive()`.
 */
export function followActive(studio, id, { state, changed = state, inactive = null } = {}) {
  let active = false;
  const notice = document.getElementById("not-active");
  const show = (instrument) => {
    active = instrument === id;
    if (notice) notice.hidden = active;
    if (!active) inactive?.();
  };
  document.getElementById("activate")?.addEventListener("click", () => studio.select(id));
  studio.on("welcome", (m) => show(m.instrument));
  studio.on("state", (m) => { show(m.instrument); if (active) state?.(m.state); });
  studio.on("changed", (m) => { if (m.instrument === id) changed?.(m.changes); });
  return { isActive: () => active };
}
