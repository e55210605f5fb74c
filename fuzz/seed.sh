#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets in fuzz/corpus/<target>/ (gitignored) from the
# project's spec/ documents and the reference material in ../shared (never committed).
# Usage: fuzz/seed.sh   (from anywhere; needs cargo for the bytecode seeds)
set -euo pipefail
fuzz_dir="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$fuzz_dir")"
shared="$repo/../shared"
corpus="$fuzz_dir/corpus"
mkdir -p "$corpus"/{spec_parser,spec_variants,asm_roundtrip,codec_roundtrip,runtime_exec,object_read}
# The compiler's object files seed the object reader.
cp "$(dirname "$0")"/../fixtures/object/*/*.isa "$corpus"/object_read/ 2>/dev/null || true

# Opcode documents: ours, the upstream ones and the five seeds.
cp "$repo"/spec/*.md "$corpus/spec_parser/"

# Structural variants: a document index (2 bytes, little-endian) then one byte per transform
# (its low nibble picks the transform, the byte seeds its choices); every transform on a spread
# of documents.
for i in $(seq 0 7 210); do
    for t in $(seq 0 14); do
        printf "\\x$(printf %02x $((i % 256)))\\x$(printf %02x $((i / 256)))\\x$(printf %02x "$t")" \
            > "$corpus/spec_variants/doc$i-t$t"
    done
done
# Kernels of our own whose messages take the compiled tier's block copies and unrolled lanes.
cp "$fuzz_dir"/seeds/runtime_exec/*.visaasm "$corpus/runtime_exec/"
if [ ! -d "$shared" ]; then
    echo "../shared not found: only spec/ seeds written" >&2
    exit 0
fi
for f in "$shared"/visa-docs/instructions/*.md; do cp "$f" "$corpus/spec_parser/upstream-$(basename "$f")"; done
for f in "$shared"/seeds/*; do cp "$f" "$corpus/spec_parser/seed-$(basename "$f")"; done

# Assembly: one file per corpus line, and the whole kernels.
split_lines() { # <file> <prefix> <dir>
    local n=0
    while IFS= read -r line || [ -n "$line" ]; do
        [ -z "${line// }" ] && continue
        printf '%s\n' "$line" > "$3/$2-$(printf '%05d' "$n")"
        n=$((n + 1))
    done < "$1"
}
for f in igc-printed doc-examples appendix-examples; do
    split_lines "$shared/asm-corpus/$f.txt" "$f" "$corpus/asm_roundtrip"
done
for k in "$shared"/asm-corpus/kernels/*.visaasm; do
    cp "$k" "$corpus/asm_roundtrip/kernel-$(basename "$k")"
    cp "$k" "$corpus/runtime_exec/kernel-$(basename "$k")"
done
# Single instructions as kernels too (the runtime declares %0..%2 itself).
split_lines "$shared/asm-corpus/igc-printed.txt" igc-printed "$corpus/runtime_exec"

# Bytecode: the corpus lines that encode.
cat "$shared"/asm-corpus/*.txt \
    | (cd "$fuzz_dir" && cargo run --quiet --release --example make_codec_seeds -- "$corpus")
for t in spec_parser asm_roundtrip codec_roundtrip runtime_exec; do
    echo "$t: $(ls "$corpus/$t" | wc -l) seeds"
done
