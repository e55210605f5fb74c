#!/bin/sh
# Regenerates the GenX_IR fixtures of the differential test (cli/tests/igc_agreement.rs): the OpenCL dumps
# (scripts/igc-opencl.sh), then GenX_IR's verdict of every kernel of the corpus on DG2 and PVC
# (fixtures/igc/verdicts-*.tsv) and its listings of the accepted ones (fixtures/igc/listings-pvc/).
# Needs GenX_IR and ocloc (Debian: libigc-tools, intel-opencl-icd).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# --missing: judge only the kernels the fixtures do not cover yet (same assembler version).
mode=1
[ "${1:-}" = "--missing" ] && mode=missing
[ "$mode" = missing ] || scripts/igc-opencl.sh
# The reference corpus (../shared, or $VISA_SHARED_DIR) adds the compiler-printed lines.
VISA_IGC_REGENERATE=$mode cargo test -p visa-cli --test igc_agreement -- --nocapture
# GenX_IR's listings (-dumpcommonisa) of the kernels it accepts on PVC (cli/tests/igc_printing.rs).
[ "$mode" = missing ] || VISA_IGC_REGENERATE=1 cargo test -p visa-cli --test igc_printing -- --nocapture
