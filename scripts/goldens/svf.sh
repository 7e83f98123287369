#!/usr/bin/env bash
# Renders golden outputs of Faust's fi.svf (the state-variable filter oracle for StateVariableFilterTests).
#
#   scripts/goldens/svf.sh [OUTDIR] [CASE...]
#
# OUTDIR defaults to Tests/TouchstoneTests/Fixtures. With no CASE, every case below is rendered and the
# manifest svf_cases.txt is rewritten; with CASE names, only those .f32 files are rendered (the live
# oracle test uses this to re-render one case at test time).
#
# Each case is a Faust program whose three output channels are: the input signal (a PolyBLEP saw plus
# Faust's deterministic noise), the cutoff in Hz (constant, or swept per sample), and fi.svf.<mode>.
# The file svf_<name>.f32 holds FRAMES interleaved frames of those three float32 (little-endian) values,
# rendered at 48 kHz in single precision. Needs: faust (Debian package faust) and a C++ compiler (g++).
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-Tests/TouchstoneTests/Fixtures}"
shift || true
mkdir -p "$out"
FRAMES=2048

# name mode cutoff-expression q  (a cutoff of "sweep" is 100…20 000 Hz following a 5 Hz sine)
CASES="
lp_1000_0.707 lp 1000 0.707
lp_2000_5 lp 2000 5
lp_15000_2 lp 15000 2
hp_500_0.707 hp 500 0.707
hp_8000_10 hp 8000 10
bp_1500_3 bp 1500 3
notch_3000_1 notch 3000 1
peak_700_4 peak 700 4
ap_5000_0.8 ap 5000 0.8
lp_sweep_8 lp sweep 8
"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/arch.cpp" <<'ARCH'
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "faust/gui/UI.h"
#include "faust/gui/meta.h"
#include "faust/dsp/dsp.h"

<<includeIntrinsic>>
<<includeclass>>

int main(int argc, char** argv) {
    int frames = argc > 1 ? std::atoi(argv[1]) : 2048;
    mydsp dsp;
    dsp.init(48000);
    const int channels = dsp.getNumOutputs();
    const int block = 256;
    std::vector<std::vector<FAUSTFLOAT>> buffers(channels, std::vector<FAUSTFLOAT>(block));
    std::vector<FAUSTFLOAT*> pointers(channels);
    for (int c = 0; c < channels; ++c) pointers[c] = buffers[c].data();
    std::vector<float> frame(block * channels);
    for (int done = 0; done < frames; done += block) {
        int n = std::min(block, frames - done);
        dsp.compute(n, nullptr, pointers.data());
        for (int i = 0; i < n; ++i)
            for (int c = 0; c < channels; ++c) frame[i * channels + c] = buffers[c][i];
        std::fwrite(frame.data(), sizeof(float), n * channels, stdout);
    }
    return 0;
}
ARCH

render() {
    local name=$1 mode=$2 cutoff=$3 q=$4
    local fc="$cutoff"
    [ "$cutoff" = sweep ] && fc="100 * pow(200, 0.5 + 0.5 * os.osc(5))"
    cat > "$work/$name.dsp" <<DSP
import("stdfaust.lib");
x = os.polyblep_saw(110) * 0.5 + no.noise * 0.25;
fc = $fc;
process = x, fc, (x : fi.svf.$mode(fc, $q));
DSP
    faust -a "$work/arch.cpp" -ftz 0 "$work/$name.dsp" -o "$work/$name.cpp"
    g++ -O1 -std=c++17 "$work/$name.cpp" -o "$work/$name"
    "$work/$name" "$FRAMES" > "$out/svf_$name.f32"
}

wanted="$*"
manifest=""
while read -r name mode cutoff q; do
    [ -z "$name" ] && continue
    manifest="$manifest$name $mode $cutoff $q $FRAMES"$'\n'
    if [ -z "$wanted" ] || [[ " $wanted " == *" $name "* ]]; then
        render "$name" "$mode" "$cutoff" "$q"
    fi
done <<< "$CASES"
if [ -z "$wanted" ]; then
    printf '# name faust-mode cutoff-Hz-or-sweep Q frames (svf_<name>.f32: frames x [input, cutoff, output] float32 LE)\n%s' "$manifest" > "$out/svf_cases.txt"
fi
