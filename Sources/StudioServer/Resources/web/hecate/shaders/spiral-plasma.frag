// Coven: a spiral plasma around Hecate's wheel (the strophalos). Five spiral arms, one per chord tone,
// each as bright as its tone; plasma filaments thicken with `u_density` and glow with `u_glow`; the
// bass blooms the centre, the tremolo pumps the light, the breath drifts the attractor, the filter
// sweep stretches the arms tangentially, the loudness sets the brightness.
vec3 scene(vec2 uv) {
  float aspect = u_resolution.x / u_resolution.y;
  vec2 centre = vec2(0.5 + 0.05 * sin(6.2832 * u_drift), 0.5 + 0.04 * cos(6.2832 * u_drift));
  vec2 p = (uv - centre) * vec2(aspect, 1.0);
  float r = length(p) + 1e-4;
  float a = atan(p.y, p.x);
  // Warp: the plasma folds around the attractor.
  a += u_warp * 0.9 * (noise(p * 4.0 + u_time * 0.2) - 0.5);
  float twist = 5.0 + 4.0 * u_stretch;
  float plasma = 0.0;
  vec3 c = u_palette[0];
  float pump = 0.75 + 0.25 * cos(6.2832 * u_pump);
  float light = (0.2 + 0.8 * u_brightness) * pump;
  for (int i = 0; i < 5; i++) {
    float fi = float(i);
    float arm = sin(a + fi * 1.2566 - log(r) * twist + u_time * (0.3 + 0.07 * fi));
    float width = 0.15 + 0.5 * u_density;
    float filament = pow(max(arm, 0.0), 1.0 / (0.15 + width)) * u_tones[i];
    filament *= smoothstep(0.75, 0.05, r);
    plasma += filament;
    c += palette(0.3 + 0.14 * fi) * filament * light * (0.5 + u_glow);
  }
  float sparks = step(0.985 - 0.02 * u_density, hash(floor(p * 90.0) + floor(u_time * 8.0))) * plasma;
  c += u_palette[3] * sparks * light * 0.6;
  c += palette(0.75) * u_bloom * light * exp(-r * r * (14.0 - 8.0 * u_bloom));
  // The wheel's rim.
  c += u_palette[1] * smoothstep(0.006, 0.0, abs(r - 0.36)) * 0.3 * light;
  return c;
}
