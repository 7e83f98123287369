// Immerse: the seed's full-screen visual. One fragment shader per pack (/hecate/shaders/<name>.frag:
// the Cathedral's moss grid, the Coven's spiral plasma), driven by the engine's visual properties
// (density, bloom, pump, drift, glow, stretch, brightness, the five tone amplitudes), with a feedback
// trail (the previous frame × decay) and a domain warp. Display rate while it sounds; 10 fps when the
// RMS is under 0.005. Where WebGL is missing, a 2D canvas draws the same ideas.
//
//   const immerse = new Immerse(canvas, { renderer: "webgl" | "2d" | null });
//   immerse.setVisual({ shader: "moss-grid", overrides: { feedbackDecay, warp, palette } });
//   immerse.update(viz); immerse.setVisible(true);

import { fitCanvas } from "/js/canvas.js";

export const IDLE_RMS = 0.005;
export const IDLE_FPS = 10;

/** Each shader's defaults: the pack's palette (darkest first) and its trail and warp. */
export const SHADER_DEFAULTS = {
  "moss-grid": { palette: ["#0A090D", "#2D4A2B", "#8DB36B", "#EBE6DA"], feedbackDecay: 0.8, warp: 0.25 },
  "spiral-plasma": { palette: ["#0A090D", "#A633D9", "#F25933", "#EBE6DA"], feedbackDecay: 0.86, warp: 0.5 },
};

const KEYS = ["density", "bloom", "pump", "drift", "glow", "stretch", "brightness", "rms"];

export function hexToRGB(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

const HEADER = `precision mediump float;
uniform vec2 u_resolution;
uniform float u_time, u_density, u_bloom, u_pump, u_drift, u_glow, u_stretch, u_brightness, u_warp, u_decay;
uniform float u_tones[5];
uniform vec3 u_palette[4];
uniform sampler2D u_prev;
float hash(vec2 p) { return fract(sin(dot(p, vec2(127.1, 311.7))) * 43758.5453); }
float noise(vec2 p) {
  vec2 i = floor(p), f = fract(p);
  vec2 u = f * f * (3.0 - 2.0 * f);
  return mix(mix(hash(i), hash(i + vec2(1.0, 0.0)), u.x), mix(hash(i + vec2(0.0, 1.0)), hash(i + vec2(1.0, 1.0)), u.x), u.y);
}
vec3 palette(float t) {
  t = clamp(t, 0.0, 1.0) * 3.0;
  if (t < 1.0) return mix(u_palette[0], u_palette[1], t);
  if (t < 2.0) return mix(u_palette[1], u_palette[2], t - 1.0);
  return mix(u_palette[2], u_palette[3], t - 2.0);
}
`;

const MAIN = `
void main() {
  vec2 uv = gl_FragCoord.xy / u_resolution;
  vec3 c = scene(uv);
  // The trail: the previous frame, drawn slightly in towards the centre, fading by the decay.
  vec2 back = 0.5 + (uv - 0.5) * (0.995 - 0.01 * u_warp);
  vec3 prev = texture2D(u_prev, back).rgb * u_decay;
  gl_FragColor = vec4(max(c, prev), 1.0);
}
`;

const VERTEX = `attribute vec2 a_position; void main() { gl_Position = vec4(a_position, 0.0, 1.0); }`;
const BLIT = `precision mediump float; uniform sampler2D u_image; uniform vec2 u_resolution;
void main() { gl_FragColor = texture2D(u_image, gl_FragCoord.xy / u_resolution); }`;

export class Immerse {
  constructor(canvas, { renderer = null } = {}) {
    this.canvas = canvas;
    this.visible = false;
    this.visual = { shader: "moss-grid", overrides: {} };
    this.config = this.resolve(this.visual);
    this.target = Object.fromEntries(KEYS.map((k) => [k, 0]));
    this.target.tones = [0, 0, 0, 0, 0];
    this.shown = structuredClone(this.target);
    this.frames = 0;
    this.lastDraw = 0;
    this.programs = new Map();
    this.sources = new Map();
    this.gl = renderer === "2d" ? null : canvas.getContext("webgl", { antialias: false, preserveDrawingBuffer: true });
    this.mode = this.gl ? "webgl" : "2d";
    if (!this.gl) this.g2d = canvas.getContext("2d");
    else {
      // A busy machine's GPU process can lose the context before the first shader compiles (Chromium's
      // SwiftShader under load): the picture falls back to 2D rather than stopping the page's script (and with
      // it the page's connection, which is opened after the panels are built).
      canvas.addEventListener("webglcontextlost", () => this.fallBackTo2D("the WebGL context was lost"));
      try { this.setUpWebGL(); } catch (error) { this.fallBackTo2D(error.message); }
    }
    this.canvas.dataset.renderer = this.mode;
    this.canvas.dataset.frames = "0";
    this.canvas.dataset.rate = "idle";
    this.start = performance.now();
    const tick = (now) => {
      try { this.tick(now); } catch (error) {
        if (this.gl) this.fallBackTo2D(error.message);
        else if (!this.drawFailed) { this.drawFailed = true; console.warn("immerse: drawing failed", error); }  // once, not per frame
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  /** The shader's defaults with the pack's overrides on top. */
  resolve(visual) {
    const defaults = SHADER_DEFAULTS[visual.shader] ?? SHADER_DEFAULTS["moss-grid"];
    const o = visual.overrides ?? {};
    const palette = [...defaults.palette];
    (o.palette ?? []).forEach((c, i) => { palette[i] = c; });
    return {
      shader: SHADER_DEFAULTS[visual.shader] ? visual.shader : "moss-grid",
      palette: palette.map(hexToRGB),
      feedbackDecay: o.feedbackDecay ?? defaults.feedbackDecay,
      warp: o.warp ?? defaults.warp,
    };
  }

  setVisual(visual) {
    this.visual = visual;
    this.config = this.resolve(visual);
    this.canvas.dataset.shader = this.config.shader;
    if (this.gl) this.loadShader(this.config.shader);
  }

  setVisible(visible) { this.visible = visible; }

  update(viz) {
    for (const k of KEYS) if (Number.isFinite(viz[k])) this.target[k] = viz[k];
    if (Array.isArray(viz.tones)) this.target.tones = viz.tones.slice(0, 5);
  }

  tick(now) {
    if (!this.visible) return;
    const idle = this.target.rms < IDLE_RMS;
    this.canvas.dataset.rate = idle ? "idle" : "display";
    if (idle && now - this.lastDraw < 1000 / IDLE_FPS) return;
    const dt = Math.min(0.25, Math.max(0.001, (now - (this.lastDraw || now)) / 1000));
    this.lastDraw = now;
    // Frames arrive at up to 30 Hz; the picture moves at display rate, easing towards them (≈ 60 ms).
    const k = 1 - Math.exp(-dt / 0.06);
    for (const key of KEYS) {
      if (key === "pump" || key === "drift") this.shown[key] = this.target[key]; // phases: no easing across a wrap
      else this.shown[key] += (this.target[key] - this.shown[key]) * k;
    }
    for (let i = 0; i < 5; i++) this.shown.tones[i] += ((this.target.tones[i] ?? 0) - this.shown.tones[i]) * k;
    this.fit();
    const t = (now - this.start) / 1000;
    if (this.gl) this.drawWebGL(t); else this.draw2D(t);
    this.frames++;
    this.canvas.dataset.frames = String(this.frames);
  }

  fit() {
    if (fitCanvas(this.canvas, { maxRatio: 2 }).resized && this.gl) this.makeTargets();
  }

  // ---- WebGL ----
  setUpWebGL() {
    const gl = this.gl;
    this.quad = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.quad);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
    this.blit = this.compile(BLIT);
    this.makeTargets();
  }

  compile(fragmentSource) {
    const gl = this.gl;
    if (gl.isContextLost()) throw new Error("the WebGL context is lost");
    const shader = (type, source) => {
      const s = gl.createShader(type);
      gl.shaderSource(s, source);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
      return s;
    };
    const p = gl.createProgram();
    gl.attachShader(p, shader(gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(p, shader(gl.FRAGMENT_SHADER, fragmentSource));
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
    const uniforms = {};
    const n = gl.getProgramParameter(p, gl.ACTIVE_UNIFORMS);
    for (let i = 0; i < n; i++) {
      const info = gl.getActiveUniform(p, i);
      uniforms[info.name.replace(/\[0\]$/, "")] = gl.getUniformLocation(p, info.name);
    }
    return { program: p, uniforms, position: gl.getAttribLocation(p, "a_position") };
  }

  async loadShader(name) {
    if (this.programs.has(name) || this.sources.has(name)) return;
    this.sources.set(name, "loading");
    try {
      const response = await fetch(`/hecate/shaders/${name}.frag`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const source = await response.text();
      this.programs.set(name, this.compile(HEADER + source + MAIN));
      this.canvas.dataset.compiled = [...this.programs.keys()].join(" ");
    } catch (error) {
      this.fallBackTo2D(`shader ${name} unavailable (${error.message})`);
    }
  }

  /** Draws in 2D from now on; `why` goes to the console (a warning: the page still works). */
  fallBackTo2D(why) {
    if (!this.gl) return;
    console.warn(`immerse: ${why}; drawing in 2D`);
    // A canvas with a WebGL context cannot give a 2D one: swap in a fresh canvas.
    const fresh = this.canvas.cloneNode(false);
    this.canvas.replaceWith(fresh);
    this.canvas = fresh;
    this.gl = null;
    this.mode = "2d";
    this.g2d = fresh.getContext("2d");
    fresh.dataset.renderer = "2d";
  }

  makeTargets() {
    const gl = this.gl, w = this.canvas.width, h = this.canvas.height;
    for (const t of this.targets ?? []) { gl.deleteTexture(t.texture); gl.deleteFramebuffer(t.framebuffer); }
    this.targets = [0, 1].map(() => {
      const texture = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
      for (const [p, v] of [[gl.TEXTURE_MIN_FILTER, gl.LINEAR], [gl.TEXTURE_MAG_FILTER, gl.LINEAR], [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE], [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE]]) gl.texParameteri(gl.TEXTURE_2D, p, v);
      const framebuffer = gl.createFramebuffer();
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
      gl.clearColor(0, 0, 0, 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
      return { texture, framebuffer };
    });
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    this.current = 0;
  }

  drawQuad(p) {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.quad);
    gl.enableVertexAttribArray(p.position);
    gl.vertexAttribPointer(p.position, 2, gl.FLOAT, false, 0, 0);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  }

  drawWebGL(t) {
    const gl = this.gl, p = this.programs.get(this.config.shader);
    if (!p) return;
    const w = this.canvas.width, h = this.canvas.height, s = this.shown, u = p.uniforms;
    const read = this.targets[this.current], write = this.targets[1 - this.current];
    gl.viewport(0, 0, w, h);
    gl.bindFramebuffer(gl.FRAMEBUFFER, write.framebuffer);
    gl.useProgram(p.program);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, read.texture);
    gl.uniform1i(u.u_prev, 0);
    gl.uniform2f(u.u_resolution, w, h);
    gl.uniform1f(u.u_time, t);
    for (const k of ["density", "bloom", "pump", "drift", "glow", "stretch", "brightness"]) if (u[`u_${k}`]) gl.uniform1f(u[`u_${k}`], s[k]);
    if (u.u_warp) gl.uniform1f(u.u_warp, this.config.warp);
    if (u.u_decay) gl.uniform1f(u.u_decay, this.config.feedbackDecay);
    if (u.u_tones) gl.uniform1fv(u.u_tones, new Float32Array(s.tones));
    if (u.u_palette) gl.uniform3fv(u.u_palette, new Float32Array(this.config.palette.flat()));
    this.drawQuad(p);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.useProgram(this.blit.program);
    gl.bindTexture(gl.TEXTURE_2D, write.texture);
    gl.uniform1i(this.blit.uniforms.u_image, 0);
    gl.uniform2f(this.blit.uniforms.u_resolution, w, h);
    this.drawQuad(this.blit);
    this.current = 1 - this.current;
  }

  // ---- 2D fallback: the same mapping, drawn with canvas shapes ----
  draw2D(t) {
    const g = this.g2d, w = this.canvas.width, h = this.canvas.height, s = this.shown, c = this.config;
    const rgb = (i, a = 1) => `rgba(${c.palette[i].map((x) => Math.round(x * 255)).join(",")},${a})`;
    // The trail: paint the background over the last frame at (1 − decay).
    g.fillStyle = rgb(0, 1 - c.feedbackDecay);
    g.fillRect(0, 0, w, h);
    const pump = 0.75 + 0.25 * Math.cos(2 * Math.PI * s.pump);
    const light = (0.25 + 0.75 * s.brightness) * pump;
    const cx = w / 2 + Math.sin(2 * Math.PI * s.drift) * w * 0.04, cy = h / 2 + Math.cos(2 * Math.PI * s.drift) * h * 0.03;
    const bloom = g.createRadialGradient(cx, cy, 0, cx, cy, Math.max(w, h) * (0.1 + 0.35 * s.bloom));
    bloom.addColorStop(0, rgb(3, 0.5 * light * (0.2 + s.bloom)));
    bloom.addColorStop(1, rgb(0, 0));
    g.fillStyle = bloom;
    g.fillRect(0, 0, w, h);
    if (c.shader === "spiral-plasma") {
      const n = Math.round(40 + 260 * s.density);
      for (let i = 0; i < n; i++) {
        const arm = i % 5, a = (i / n) * Math.PI * 6 + t * 0.4 + arm * (2 * Math.PI / 5);
        const r = (i / n) * Math.min(w, h) * 0.48 * (1 + 0.3 * s.stretch);
        const x = cx + Math.cos(a + c.warp * Math.sin(t + i * 0.1)) * r, y = cy + Math.sin(a) * r;
        g.fillStyle = rgb(1 + (arm % 3 === 0 ? 1 : 0), Math.min(1, light * (0.3 + s.tones[arm])));
        g.beginPath();
        g.arc(x, y, 1.5 + 5 * s.glow, 0, 2 * Math.PI);
        g.fill();
      }
    } else {
      const cols = 24, rows = Math.max(8, Math.round(cols * h / w)), cw = w / cols, ch = h / rows;
      for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) {
        const seed = Math.abs(Math.sin(i * 12.9898 + j * 78.233) * 43758.5453) % 1;
        if (seed > 0.15 + 0.85 * s.density) continue;
        const tone = s.tones[Math.floor(i * 5 / cols)];
        const size = Math.min(0.9, (0.25 + 0.5 * tone) * (1 + 0.4 * s.glow));
        // The filter sweep stretches the moss sideways within its cell.
        const sw = Math.min(0.95, size * (1 + 0.5 * s.stretch));
        g.fillStyle = rgb(seed < 0.5 ? 1 : 2, Math.min(1, light * (0.3 + tone)));
        g.fillRect(i * cw + cw * (1 - sw) / 2, j * ch + ch * (1 - size) / 2, cw * sw, ch * size);
      }
    }
  }
}
