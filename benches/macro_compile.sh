#!/usr/bin/env bash
# Times what a 1,000-instruction `isa!` kernel costs the compiler.
#
# Proc macros cannot be called from a benchmark, so this builds a scratch crate that depends on
# `visa` twice: once with a `main` that does not use `isa!` (baseline) and once with a `main`
# that expands a 1,000-instruction kernel (the same kernel `isa/benches/text.rs` parses). Each
# variant is rebuilt RUNS times after touching its source (dependencies are built once, not
# timed); the difference of the medians is the expansion plus the type-checking and code
# generation of the expanded code.
#
# With TIME_PASSES=1 (the default) it also asks rustc for its `-Z time-passes` report of a
# non-incremental build of the kernel variant and prints the main passes: `expand_crate` is the
# macro expansion alone (running the proc macro and parsing its output). That flag is unstable:
# the script sets RUSTC_BOOTSTRAP=1 for that one measurement only.
#
# Usage: benches/macro_compile.sh [RUNS]      (default 5)
# Env:   CARGO_TARGET_DIR (default: a `target` inside the scratch crate), PROFILE (dev|release,
#        default dev), MACRO_OPT=1 to compile the proc macro and its dependencies with
#        opt-level 3 in the dev profile (`[profile.dev.build-override]`), TIME_PASSES (1|0),
#        CALLGRIND=1 to also count the instructions of that rustc process with valgrind
#        (repeatable whatever the load; 30 s to 8 min), KEEP=1 to keep the scratch crate.
set -euo pipefail

runs=${1:-5}
profile=${PROFILE:-dev}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
crate=$(mktemp -d "${TMPDIR:-/tmp}/isa-macro-compile.XXXXXX")
if [[ "${KEEP:-0}" != 1 ]]; then
    trap 'rm -rf "$crate"' EXIT
fi
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$crate/target}

mkdir -p "$crate/src/bin"
cat > "$crate/Cargo.toml" <<EOF
[package]
name = "isa-macro-compile"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
visa = { path = "$repo" }

[workspace]
EOF
if [[ "${MACRO_OPT:-0}" == 1 ]]; then
    printf '\n[profile.dev.build-override]\nopt-level = 3\n' >> "$crate/Cargo.toml"
fi
# The workspace's lock file keeps dependency versions identical to the workspace build.
cp "$repo/Cargo.lock" "$crate/Cargo.lock"

cat > "$crate/src/bin/baseline.rs" <<'EOF'
fn main() {
    let kernel = visa::Kernel::invalid();
    println!("{}", kernel.name());
}
EOF

# The kernel: 3 movs then 997 instructions cycling through eight ALU forms.
{
    echo 'fn main() {'
    echo '    let kernel = visa::isa! {'
    echo '        kernel bench<16>() {'
    echo '            .decl A v_type=G type=d num_elts=16 align=GRF'
    echo '            .decl B v_type=G type=d num_elts=16 align=GRF'
    echo '            .decl C v_type=G type=d num_elts=16 align=GRF'
    echo '            .decl P1 v_type=P num_elts=16'
    echo '            mov (M1, 16) A(0,0)<1> 0x1:d'
    echo '            mov (M1, 16) B(0,0)<1> 0x2:d'
    echo '            mov (M1, 16) C(0,0)<1> 0x3:d'
    for ((i = 0; i < 997; i++)); do
        case $((i % 8)) in
            0) printf '            add (M1, 16) B(0,0)<1> A(0,0)<1;1,0> 0x%x:d\n' $((i + 1)) ;;
            1) echo '            mul (M1, 16) C(0,0)<1> B(0,0)<1;1,0> A(0,0)<1;1,0>' ;;
            2) echo '            mad (M1, 16) B(0,0)<1> C(0,0)<1;1,0> 0x3:d B(0,0)<1;1,0>' ;;
            3) echo '            cmp.lt (M1, 16) P1 B(0,0)<1;1,0> C(0,0)<1;1,0>' ;;
            4) echo '            (P1) sel (M1, 16) A(0,0)<1> B(0,0)<1;1,0> C(0,0)<1;1,0>' ;;
            5) echo '            shl (M1, 16) C(0,0)<1> A(0,0)<1;1,0> 0x2:d' ;;
            6) echo '            xor (M1, 16) A(0,0)<1> A(0,0)<1;1,0> C(0,0)<1;1,0>' ;;
            7) echo '            mov (M1, 16) A(0,0)<1> C(0,0)<1;1,0>' ;;
        esac
    done
    echo '        }'
    echo '    };'
    echo '    println!("{} {}", kernel.name(), kernel.module().map_or(0, |m| m.stmts.len()));'
    echo '}'
} > "$crate/src/bin/kernel.rs"

cd "$crate"
profile_flag=(--profile "$profile")
echo "scratch crate: $crate (target dir $CARGO_TARGET_DIR, profile $profile, macro opt-level 3: ${MACRO_OPT:-0})"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "building the dependencies (not timed)..."
cargo build --quiet "${profile_flag[@]}" --bins

# Median wall time in seconds of RUNS rebuilds of one binary.
time_bin() {
    local bin=$1 samples=()
    for ((r = 0; r < runs; r++)); do
        touch "src/bin/$bin.rs"
        local start end
        start=$(date +%s.%N)
        cargo build --quiet "${profile_flag[@]}" --bin "$bin"
        end=$(date +%s.%N)
        samples+=("$(echo "$end - $start" | bc)")
    done
    printf '%s\n' "${samples[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

baseline=$(time_bin baseline)
kernel=$(time_bin kernel)
printf 'cargo build, baseline (no isa!):        %.3f s (median of %d)\n' "$baseline" "$runs"
printf 'cargo build, 1,000-instruction isa!:    %.3f s (median of %d)\n' "$kernel" "$runs"
printf 'difference (expansion + type check + codegen of the expansion): %.0f ms\n' \
    "$(echo "($kernel - $baseline) * 1000" | bc)"

# The kernel really expanded: the binary prints the statement count.
echo "kernel binary prints: $("$CARGO_TARGET_DIR/$([[ $profile == dev ]] && echo debug || echo "$profile")/kernel")"

if [[ "${TIME_PASSES:-1}" == 1 ]]; then
    # Non-incremental, so every pass runs: the cold cost of the kernel binary, pass by pass.
    touch src/bin/kernel.rs
    passes=$(RUSTC_BOOTSTRAP=1 CARGO_INCREMENTAL=0 cargo rustc --quiet "${profile_flag[@]}" \
        --bin kernel -- -Z time-passes 2>&1 || true)
    echo "rustc -Z time-passes, kernel binary, non-incremental (seconds):"
    for pass in expand_crate type_check_crate MIR_borrow_checking codegen_crate LLVM_passes \
        link total; do
        seconds=$(echo "$passes" | grep -E "[[:space:]]$pass\$" | tail -1 |
            sed -E 's/^time: +([0-9.]+);.*/\1/' || true)
        printf '  %-20s %s\n' "$pass" "${seconds:-not reported}"
    done
fi

if [[ "${CALLGRIND:-0}" == 1 ]]; then
    # Only the rustc compiling the kernel binary runs under callgrind (a workspace wrapper).
    cat > "$crate/callgrind-rustc.sh" <<'EOF'
#!/usr/bin/env bash
rustc=$1
shift
if [[ " $* " == *" --crate-name kernel "* ]]; then
    exec valgrind --quiet --tool=callgrind --callgrind-out-file="$CALLGRIND_OUT" "$rustc" "$@"
fi
exec "$rustc" "$@"
EOF
    chmod +x "$crate/callgrind-rustc.sh"
    touch src/bin/kernel.rs
    CALLGRIND_OUT="$crate/callgrind.out" RUSTC_WORKSPACE_WRAPPER="$crate/callgrind-rustc.sh" \
        CARGO_INCREMENTAL=0 cargo build --quiet "${profile_flag[@]}" --bin kernel
    echo "callgrind, rustc compiling the kernel binary, non-incremental (instructions, inclusive):"
    report=$(callgrind_annotate --inclusive=yes "$crate/callgrind.out" 2>/dev/null)
    printf '  %-20s %s\n' total "$(echo "$report" | grep -m1 'PROGRAM TOTALS' | awk '{ print $1 }')"
    for pass in 'expand_crate:MacroExpander>::expand_crate' 'proc macro:visa_macros::isa ' \
        'analysis:rustc_interface::passes::analysis ' 'codegen_crate:CodegenBackend>::codegen_crate'; do
        count=$(echo "$report" | grep -m1 -F "${pass#*:}" | awk '{ print $1 }' || true)
        printf '  %-20s %s\n' "${pass%%:*}" "${count:-not reported}"
    done
fi
