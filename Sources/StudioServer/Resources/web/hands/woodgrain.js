// Procedural rosewood grain (the seed's WoodGrainView): a seeded random generator, so the same seed
// draws the same board on every device and every reload.

/** mulberry32: a small 32-bit seeded generator, uniform in [0, 1). */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws rosewood into `g` over w × h pixels: a dark base, long wavy grain lines, pores and a few
 *  darker streaks; grain runs along x (the neck's length, across the frets). */
export function drawWoodGrain(g, w, h, seed = 1610) {
  const random = seededRandom(seed);
  const base = g.createLinearGradient(0, 0, 0, h);
  base.addColorStop(0, "#3a271a");
  base.addColorStop(0.5, "#2E1F14");
  base.addColorStop(1, "#24170e");
  g.fillStyle = base;
  g.fillRect(0, 0, w, h);
  // Streaks: broad, soft, darker bands.
  for (let i = 0; i < 7; i++) {
    const y = random() * h, band = (0.03 + random() * 0.08) * h;
    const s = g.createLinearGradient(0, y - band, 0, y + band);
    s.addColorStop(0, "rgba(10, 5, 2, 0)");
    s.addColorStop(0.5, `rgba(10, 5, 2, ${0.15 + random() * 0.2})`);
    s.addColorStop(1, "rgba(10, 5, 2, 0)");
    g.fillStyle = s;
    g.fillRect(0, y - band, w, 2 * band);
  }
  // Grain lines: each a sum of two slow waves with its own phase, some light, most dark.
  const lines = Math.round(h / 5);
  for (let i = 0; i < lines; i++) {
    const y0 = random() * h;
    const a1 = (2 + random() * 8) * (h / 800), f1 = (0.5 + random() * 2) * Math.PI * 2 / w, p1 = random() * 6.283;
    const a2 = random() * 2, f2 = (3 + random() * 6) * Math.PI * 2 / w, p2 = random() * 6.283;
    const light = random() < 0.25;
    g.strokeStyle = light ? `rgba(120, 72, 40, ${0.08 + random() * 0.12})` : `rgba(8, 4, 1, ${0.12 + random() * 0.25})`;
    g.lineWidth = 0.5 + random() * 1.6;
    g.beginPath();
    for (let x = 0; x <= w; x += 12) {
      const y = y0 + a1 * Math.sin(f1 * x + p1) + a2 * Math.sin(f2 * x + p2);
      if (x === 0) g.moveTo(x, y); else g.lineTo(x, y);
    }
    g.stroke();
  }
  // Pores: short dark dashes along the grain.
  g.fillStyle = "rgba(5, 2, 0, 0.35)";
  const pores = Math.round((w * h) / 2500);
  for (let i = 0; i < pores; i++) g.fillRect(random() * w, random() * h, 1 + random() * 4, 0.8);
  // A vignette, darker at the edges like an oiled board under a lamp.
  const v = g.createRadialGradient(w / 2, h / 2, Math.min(w, h) * 0.2, w / 2, h / 2, Math.max(w, h) * 0.75);
  v.addColorStop(0, "rgba(0,0,0,0)");
  v.addColorStop(1, "rgba(0,0,0,0.45)");
  g.fillStyle = v;
  g.fillRect(0, 0, w, h);
}
