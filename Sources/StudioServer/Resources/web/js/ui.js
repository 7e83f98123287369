// Shared controls: every control gets an aria-label and a stable data-testid (tests use them).

export function element(tag, attributes = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) {
    if (v === undefined || v === null) continue;
    if (k === "testid") e.dataset.testid = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

/** A button: `label` for screen readers, `text` shown. */
export function button(text, { label = text, testid, onclick, pressed } = {}) {
  const b = element("button", { type: "button", "aria-label": label, testid, onclick, text });
  if (pressed !== undefined) b.setAttribute("aria-pressed", String(pressed));
  return b;
}

/** A labelled range slider sending `oninput(value)` as a number. */
export function slider(label, { testid, min = 0, max = 1, step = 0.01, value = 0, oninput } = {}) {
  const input = element("input", { type: "range", min, max, step, value, "aria-label": label, testid });
  input.addEventListener("input", () => oninput?.(Number(input.value)));
  return element("label", { class: "slider" }, element("span", { text: label }), input);
}

/** A labelled select sending `onchange(value)`. */
export function select(label, options, { testid, value, onchange } = {}) {
  const s = element("select", { "aria-label": label, testid });
  for (const o of options) {
    const [v, t] = Array.isArray(o) ? o : [o, o];
    const opt = element("option", { value: v, text: t });
    if (v === value) opt.selected = true;
    s.append(opt);
  }
  s.addEventListener("change", () => onchange?.(s.value));
  return element("label", { class: "select" }, element("span", { text: label }), s);
}

/** "3.2 s ago" for a seconds-ago figure. */
export function ago(seconds) {
  if (!Number.isFinite(seconds)) return "—";
  if (seconds < 1) return "now";
  if (seconds < 90) return `${Math.round(seconds)} s ago`;
  return `${Math.round(seconds / 60)} min ago`;
}
