#!/bin/sh
# Compiles the OpenCL C kernels of fixtures/igc/opencl/*.cl with Intel's ocloc for DG2 and PVC and keeps
# the vISA assembly the compiler dumps, one file per kernel: fixtures/igc/opencl/FILE/DEVICE/KERNEL.visaasm.
# Needs ocloc (Debian: intel-opencl-icd, libigc-tools). Usage: scripts/igc-opencl.sh [DEVICE...]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/fixtures/igc/opencl"
devices=${*:-dg2 pvc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cl in "$dir"/*.cl; do
    name=$(basename "$cl" .cl)
    for device in $devices; do
        dump="$tmp/$name-$device"
        mkdir -p "$dump"
        IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir="$dump" \
            ocloc compile -file "$cl" -device "$device" --format zebin -output_no_suffix \
            -out_dir "$tmp/out" >"$dump.log" 2>&1 || { cat "$dump.log"; exit 1; }
        out="$dir/$name/$device"
        rm -rf "$out"
        mkdir -p "$out"
        for asm in "$dump"/*.visaasm; do
            kernel=$(sed -n 's/^\.kernel "\(.*\)"$/\1/p' "$asm" | head -n 1)
            cp "$asm" "$out/$kernel.visaasm"
        done
    done
done
# The compiler that made the dumps (Debian package versions).
dpkg-query -W -f='${Package} ${Version}\n' intel-opencl-icd libigc-tools >"$dir/VERSIONS" 2>/dev/null || true
