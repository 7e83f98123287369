// The help overlay every screen installs with its own content: a "?" button in the page's header and
// the "?" key open it; Escape, the close button or a click outside the sheet close it. Each screen says
// what each of its controls does and how to play; `extra()` may add live content (Hecate's mapping guide
// table, built from the server's mapping set) each time it opens.
//
//   installHelp({ title: "Hands and touch", intro: "…", how: ["…"],
//                 sections: [{ heading: "Pad", items: [["Pad", "what it does"], …] }], extra: () => node });

import { element } from "/js/ui.js";

/**
 * Adds the "?" button (into `header`, before `before` when given) and the overlay to the page.
 * Returns `{ open, close, isOpen }`.
 */
export function installHelp({ title, intro = "", how = [], sections = [], extra = null,
                              header = document.querySelector("header"), before = null }) {
  const titleId = "help-title";
  const body = element("div", { class: "help-body", testid: "help-body" });
  const close = element("button", { type: "button", class: "primary", "aria-label": "Close the help", testid: "help-close", text: "Close" });
  const sheet = element("div", { class: "sheet help-sheet" },
    element("h2", { id: titleId, text: `Help — ${title}` }), body,
    element("div", { class: "actions" }, element("span", { class: "muted small", text: "Esc closes · ? opens" }), close));
  const overlay = element("div", { class: "overlay help-overlay", id: "help-overlay", testid: "help-overlay", role: "dialog",
    "aria-modal": "true", "aria-labelledby": titleId, hidden: "" }, sheet);
  document.body.append(overlay);

  const openButton = element("button", { type: "button", class: "help-open", "aria-label": `Help: the controls of ${title} and how to play`,
    "aria-haspopup": "dialog", "aria-controls": "help-overlay", testid: "help-open", text: "?" });
  if (header) {
    if (before && before.parentNode === header) header.insertBefore(openButton, before); else header.append(openButton);
  }

  function render() {
    const parts = [];
    if (intro) parts.push(element("p", { text: intro }));
    if (how.length) {
      parts.push(element("h3", { text: "How to play" }),
        element("ol", { class: "help-how" }, ...how.map((step) => element("li", { text: step }))));
    }
    for (const section of sections) {
      parts.push(element("h3", { text: section.heading }));
      parts.push(element("dl", { class: "help-controls", testid: "help-controls" },
        ...section.items.flatMap(([name, what]) => [element("dt", { text: name }), element("dd", { text: what })])));
    }
    const more = extra?.();
    if (more) parts.push(more);
    body.replaceChildren(...parts);
  }

  let returnFocus = null;
  const api = {
    isOpen: () => !overlay.hidden,
    open() {
      if (!overlay.hidden) return;
      render();
      returnFocus = document.activeElement;
      overlay.hidden = false;
      openButton.setAttribute("aria-expanded", "true");
      close.focus({ preventScroll: true });   // the sheet opens at its top, the close button focused
      sheet.scrollTop = 0;
    },
    close() {
      if (overlay.hidden) return;
      overlay.hidden = true;
      openButton.setAttribute("aria-expanded", "false");
      if (returnFocus && typeof returnFocus.focus === "function") returnFocus.focus();
    },
  };
  openButton.setAttribute("aria-expanded", "false");
  openButton.addEventListener("click", () => api.open());
  close.addEventListener("click", () => api.close());
  overlay.addEventListener("click", (e) => { if (e.target === overlay) api.close(); });
  // Capture phase, so a page's own Escape handler (leave Immerse, close the guide) does not also act on it.
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && api.isOpen()) { e.preventDefault(); e.stopImmediatePropagation(); api.close(); return; }
    if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    // "?" typed into a field is text, not a request for help.
    if (t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
    e.preventDefault();
    if (api.isOpen()) api.close(); else api.open();
  }, true);
  window.studioHelp = api;   // for tests and the console
  return api;
}
