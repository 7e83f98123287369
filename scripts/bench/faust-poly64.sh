#!/usr/bin/env bash
# Builds and times Faust's C++ of the reference patch (dsp-references.md section 3), the yardstick for
# prospero-bench on this machine:
#   scripts/bench/faust-poly64.sh [SECONDS]
# Needs faust and g++ (scripts/deps/touchstone.apt).
set -euo pipefail
seconds="${1:-60}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/poly64.dsp" <<'DSP'
import("stdfaust.lib");
process = par(i,64, os.polyblep_saw(55*pow(2,i/12.0)) : fi.svf.lp(2000,5) : *(en.adsr(0.01,0.2,0.7,0.5, ba.time < 59*ma.SR))) :> /(64);
DSP
cat > "$work/render-arch.cpp" <<'ARCH'
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "faust/gui/UI.h"
#include "faust/gui/meta.h"
#include "faust/dsp/dsp.h"
<<includeIntrinsic>>
<<includeclass>>
int main(int argc, char** argv) {
    double seconds = argc > 1 ? std::atof(argv[1]) : 60;
    FILE* out = argc > 2 ? std::fopen(argv[2], "wb") : nullptr;
    mydsp dsp;
    dsp.init(48000);
    const int block = 256;
    static FAUSTFLOAT buffer[block];
    FAUSTFLOAT* outputs[1] = {buffer};
    long frames = (long)(seconds * 48000);
    float peak = 0; double squares = 0;
    for (long done = 0; done < frames; done += block) {
        int n = (int)std::min<long>(block, frames - done);
        dsp.compute(n, nullptr, outputs);
        for (int i = 0; i < n; ++i) { peak = std::max(peak, std::fabs(buffer[i])); squares += buffer[i] * buffer[i]; }
        if (out) std::fwrite(buffer, sizeof(float), n, out);
    }
    std::printf("faust peak %.3f RMS %.3f\n", peak, std::sqrt(squares / frames));
    return 0;
}
ARCH
faust -a "$work/render-arch.cpp" -ftz 2 "$work/poly64.dsp" -o "$work/poly64.cpp"
g++ -O3 -march=native -ffast-math "$work/poly64.cpp" -o "$work/poly64"
/usr/bin/time -f "faust user CPU %U s, wall %e s, maxRSS %M KB" "$work/poly64" "$seconds"
