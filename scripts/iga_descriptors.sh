#!/usr/bin/env bash
# Regenerates fixtures/iga/descriptors.txt: iga64's decoding (-Xdsd) of every message descriptor
# our LSC instructions produce (`visa desc --lsc-corpus`, PVC) and of those of public inline vISA
# (fixtures/iga/inline_descriptors.txt). One line per descriptor:
#   SFID (EXEC) EXDESC DESC | SYNTAX | Word Field hi:lo value; ... | ! iga's complaints
# isa/tests/iga_descriptors.rs compares our decoding with it (and with iga64 live when installed).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v iga64 >/dev/null || { echo "iga64 is not installed (apt-get install libigc-tools)" >&2; exit 1; }
out=fixtures/iga/descriptors.txt
inputs=$(mktemp)
trap 'rm -f "$inputs"' EXIT
cargo run -q -p visa-cli -- desc --lsc-corpus --platform pvc | sed 's/ #.*//' >"$inputs"
grep -v '^#' fixtures/iga/inline_descriptors.txt | sed 's/ #.*//' >>"$inputs"
{
  echo "# iga64 -p=xehpc -Xdsd SFID (EXEC) EXDESC DESC, by scripts/iga_descriptors.sh: do not edit"
  sort -u "$inputs" | while read -r sfid exec exdesc desc; do
    decoded=$(iga64 -p=xehpc -Xdsd "$sfid" "$exec" "$exdesc" "$desc" 2>&1 || true)
    printf '%s %s %s %s | ' "$sfid" "$exec" "$exdesc" "$desc"
    awk -f scripts/iga_fields.awk <<<"$decoded"
  done
} >"$out"
echo "$(grep -vc '^#' "$out") descriptors decoded into $out"
