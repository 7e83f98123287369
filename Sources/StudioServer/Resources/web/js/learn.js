// MIDI learn buttons: one beside every control a MIDI controller can move. The server decides what is
// learnable (state.learn.controls), which control is armed (state.learn.armed) and what is bound
// (state.learn.bindings, "CC 74 ch 1"); the page only draws that and sends the actions
// `<instrument>.learn` (the control's path), `<instrument>.learnCancel` and `<instrument>.learnClear`.
import { element } from "/js/ui.js";

export class LearnButtons {
  /**
   * @param studio the StudioConnection
   * @param instrument "hecate", "hands" …
   * @param testidFor maps a control path ("hecate.bpm") to the data-testid of its input, next to which
   *   the buttons go (the pages rebuild their controls; the buttons follow on the next update).
   */
  constructor(studio, instrument, testidFor) {
    this.studio = studio;
    this.instrument = instrument;
    this.testidFor = testidFor;
  }

  /** Draws `learn` (the state's member); adds any button missing beside its control. */
  update(learn) {
    if (!learn || !Array.isArray(learn.controls)) return;
    for (const path of learn.controls) {
      const input = document.querySelector(`[data-testid="${this.testidFor(path)}"]`);
      if (!input || !input.parentElement) continue;
      const label = input.getAttribute("aria-label") ?? path;
      let box = input.parentElement.querySelector(`[data-learn="${path}"]`);
      if (!box) {
        const learnButton = element("button", {
          type: "button", class: "learn", testid: `learn-${path}`, "aria-label": `MIDI learn: ${label}`, text: "MIDI",
          onclick: () => {
            if (this.armed === path) this.studio.action(`${this.instrument}.learnCancel`);
            else this.studio.action(`${this.instrument}.learn`, path);
          },
        });
        const clear = element("button", {
          type: "button", class: "learn-clear", testid: `learn-clear-${path}`, "aria-label": `Forget the MIDI controller of ${label}`,
          text: "×", onclick: () => this.studio.action(`${this.instrument}.learnClear`, path),
        });
        box = element("span", { class: "learn-box", "data-learn": path }, learnButton, clear);
        input.parentElement.append(box);
      }
      const bound = learn.bindings?.[path] ?? null;
      const armed = learn.armed === path;
      const b = box.querySelector("button.learn");
      b.setAttribute("aria-pressed", String(armed));
      b.classList.toggle("armed", armed);
      b.classList.toggle("bound", !!bound);
      b.textContent = armed ? "move a control…" : bound ?? "MIDI";
      b.dataset.binding = bound ?? "";
      b.title = armed ? "Move a knob or fader on a MIDI controller connected to midi_in (click again to cancel)"
        : bound ? `${label}: ${bound} (click to learn again)` : `Learn a MIDI controller for ${label}`;
      box.querySelector("button.learn-clear").hidden = !bound;
    }
    this.armed = learn.armed ?? null;
  }
}
