// Cathedral: a moss grid. Stone cells in a lattice; moss grows in each cell where the chord's tones
// sound (the five tones take the columns left to right), denser with `u_density`, softer and wider
// with `u_glow`; the bass blooms from the centre, the tremolo pumps the light, the breath drifts the
// centre, the filter sweep stretches the lattice sideways, the loudness sets the brightness.
vec3 scene(vec2 uv) {
  float aspect = u_resolution.x / u_resolution.y;
  vec2 centre = vec2(0.5 + 0.04 * sin(6.2832 * u_drift), 0.5 + 0.03 * cos(6.2832 * u_drift));
  vec2 p = (uv - centre) * vec2(aspect, 1.0);
  p.x /= 1.0 + 0.6 * u_stretch;
  // Domain warp: the lattice sways like a reflection in old glass.
  p += u_warp * 0.08 * vec2(noise(p * 3.0 + u_time * 0.15), noise(p * 3.0 - u_time * 0.13)) - u_warp * 0.04;
  float cells = 14.0;
  vec2 g = p * cells;
  vec2 id = floor(g), f = fract(g) - 0.5;
  float column = clamp(floor((id.x / cells / aspect + 0.5) * 5.0), 0.0, 4.0);
  float tone = 0.0;
  for (int i = 0; i < 5; i++) { if (float(i) == column) tone = u_tones[i]; }
  float seed = hash(id);
  float alive = step(seed, 0.15 + 0.85 * u_density);
  // Moss: a noisy blob per cell whose radius follows its tone.
  float n = noise(g * 2.3 + seed * 10.0 + u_time * 0.05);
  float radius = (0.12 + 0.33 * tone) * (0.8 + 0.4 * n) * (1.0 + 0.5 * u_glow);
  float moss = smoothstep(radius, radius * (0.4 - 0.3 * u_glow), length(f)) * alive;
  float mortar = smoothstep(0.47, 0.5, max(abs(f.x), abs(f.y)));
  float pump = 0.75 + 0.25 * cos(6.2832 * u_pump);
  float light = (0.2 + 0.8 * u_brightness) * pump;
  vec3 stone = u_palette[0] + 0.04 * n;
  vec3 c = mix(stone, palette(0.35 + 0.5 * tone * n + 0.15 * seed), moss * light);
  c += u_palette[3] * mortar * 0.05 * light;
  float r = length(p);
  c += palette(0.9) * u_bloom * light * exp(-r * r * (9.0 - 5.0 * u_bloom)) * 0.9;
  return c;
}
