#!/usr/bin/env bash
# CI step: builds the fuzz targets when a nightly toolchain and cargo-fuzz are available (and
# runs the structural-variant target for CI_FUZZ_SECONDS, default 30), type-checks them when
# only nightly is; otherwise says why it skipped and succeeds. With CI_FUZZ_INSTALL=1 it first
# installs cargo-fuzz from crates.io when missing (slow: a few minutes).
set -euo pipefail
cd "$(dirname "$0")"

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "skipped: nightly toolchain or cargo-fuzz not available"
    exit 0
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    if [ "${CI_FUZZ_INSTALL:-0}" = "1" ]; then
        cargo install --locked cargo-fuzz
    else
        # Without cargo-fuzz the targets are still type-checked, so API changes of the
        # workspace cannot leave them broken.
        cargo +nightly check --bins
        echo "fuzz targets type-checked (cargo-fuzz not available: not built)"
        exit 0
    fi
fi
cargo +nightly fuzz build
echo "fuzz targets built: $(cargo fuzz list | tr '\n' ' ')"
# The engines on our own runtime seeds, once each (a copy: libFuzzer may write to its corpus).
seeds="$(mktemp -d)"
cp seeds/runtime_exec/* "$seeds"/
cargo +nightly fuzz run runtime_exec "$seeds" -- -runs=0 -rss_limit_mb=2048
rm -rf "$seeds"
# A short run of the structural-variant target over its seeds (it needs the documents, which a
# fresh clone has): CI_FUZZ_SECONDS=0 skips it.
seconds="${CI_FUZZ_SECONDS:-30}"
if [ "$seconds" != "0" ]; then
    bash seed.sh > /dev/null
    cargo +nightly fuzz run spec_variants corpus/spec_variants -- -max_total_time="$seconds" -rss_limit_mb=2048
fi
