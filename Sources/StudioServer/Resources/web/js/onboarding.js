// First run: a splash with a line from The Tempest (public domain), then three pages — welcome, how it
// works, get started — as the seed's onboarding. Shown once per browser (localStorage), again from Help.

export const TEMPEST = [
  ["Be not afeard; the isle is full of noises, sounds and sweet airs, that give delight and hurt not.", "Caliban, III.ii"],
  ["Where should this music be? I' the air or the earth?", "Ferdinand, I.ii"],
  ["This music crept by me upon the waters, allaying both their fury and my passion with its sweet air.", "Ferdinand, I.ii"],
  ["We are such stuff as dreams are made on, and our little life is rounded with a sleep.", "Prospero, IV.i"],
  ["Full fathom five thy father lies; of his bones are coral made.", "Ariel, I.ii"],
  ["I'll drown my book.", "Prospero, V.i"],
];

const PAGES = [
  (quote) => `<h2 id="onboarding-title">Welcome</h2>
    <blockquote class="tempest" data-testid="tempest-quote">“${quote[0]}”<footer>— The Tempest, ${quote[1]}</footer></blockquote>
    <p>Prospero turns your face, your hands and your fingers into music, on this machine.</p>`,
  () => `<h2 id="onboarding-title">How it works</h2>
    <p>The studio runs one instrument at a time. <b>Hecate</b> listens to your face: open your mouth, raise your brows,
    turn your head, and chords answer. <b>Hands</b> turns fingers on a touch pad, or tracked hands, into notes and MIDI.</p>
    <p>The sound is made here, once, and plays through JACK; every open page — a laptop, a phone — shows and controls it.</p>`,
  () => `<h2 id="onboarding-title">Get started</h2>
    <ol><li>Pick an instrument below and open its page.</li>
    <li>Send face or hand tracking over OSC to the address under “Connect”, or play the pad.</li>
    <li>On a phone: start with <code>--host 0.0.0.0</code> and scan the QR code the terminal shows.</li></ol>`,
];

export function showOnboarding({ force = false } = {}) {
  const overlay = document.getElementById("onboarding");
  if (!overlay) return;
  if (!force && localStorage.getItem("prospero.onboarded") === "1") return;
  const page = document.getElementById("onboarding-page");
  const next = document.getElementById("onboarding-next");
  const skip = document.getElementById("onboarding-skip");
  const dots = overlay.querySelectorAll(".dots span");
  const quote = TEMPEST[Math.floor(Math.random() * TEMPEST.length)];
  let index = 0;
  const render = () => {
    page.innerHTML = PAGES[index](quote);
    page.dataset.page = String(index + 1);
    dots.forEach((d, i) => d.classList.toggle("on", i === index));
    next.textContent = index === PAGES.length - 1 ? "Start" : "Next";
    next.setAttribute("aria-label", index === PAGES.length - 1 ? "Close the introduction" : "Next page");
  };
  const close = () => {
    overlay.hidden = true;
    localStorage.setItem("prospero.onboarded", "1");
  };
  next.onclick = () => { if (index < PAGES.length - 1) { index++; render(); } else close(); };
  skip.onclick = close;
  overlay.onkeydown = (e) => { if (e.key === "Escape") close(); };
  render();
  overlay.hidden = false;
  next.focus();
}
