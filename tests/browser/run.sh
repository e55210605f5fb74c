#!/usr/bin/env bash
# Browser test of the generated reference site, in headless Chromium.
#
#   tests/browser/run.sh [SPEC_DIR]        (default: spec/)
#
# Builds the HTML site into a temporary directory, then:
#   1. loads index.html?filter=gather (the page's script applies the query exactly as typing
#      into the filter box would) and checks that exactly the entries matching "gather" stay
#      visible and that the count line agrees;
#   2. follows the GATHER_SCALED link found in the filtered list, checks that the page has the
#      Num_blocks codes table (rows 0b00, 0b01, 0b10), and takes a screenshot, kept in
#      target/browser-test/GATHER_SCALED.png;
#   3. follows the index's Guide link and checks that the guide page has its "Declarations"
#      heading and a table of contents that links to it (screenshot guide.png);
#   4. opens the ADD page and checks, in the DOM, that the syntax comes first, then the
#      examples (with their code), and that the examples come before the encoding.
# Prints "skipped: chromium not installed" and exits 0 when /usr/bin/chromium is absent
# (override the binary with CHROMIUM=...). Set VISA=path/to/visa to skip `cargo run`.
set -euo pipefail

chromium_bin=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium_bin" ]; then
    echo "skipped: chromium not installed"
    exit 0
fi

repo=$(cd "$(dirname "$0")/../.." && pwd)
spec_dir=${1:-$repo/spec}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
site=$work/site
shots=$repo/target/browser-test
mkdir -p "$shots"

fail() {
    echo "browser test FAILED: $*" >&2
    exit 1
}

# The site is built with $VISA if set (a built `visa` binary), else with `cargo run`.
if [ -n "${VISA:-}" ]; then
    build=("$VISA" docs --out "$site" "$spec_dir")
else
    build=(cargo run --quiet -p visa-cli --bin visa -- docs --out "$site" "$spec_dir")
fi
if ! (cd "$repo" && "${build[@]}") >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    fail "building the site failed"
fi
[ -f "$site/index.html" ] || fail "no index.html generated"

chromium() {
    local profile
    profile=$(mktemp -d -p "$work" profile.XXXXXX)
    timeout 120 "$chromium_bin" --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking --disable-component-update \
        --disable-sync --user-data-dir="$profile" "$@" 2>>"$work/chromium.log"
}

# The "By name" list of a page (static file or dumped DOM): one <li> per line.
by_name() {
    sed -n '/<section id="by-name">/,/<\/section>/p' "$1" | grep '<li data-key=' || true
}

# 1. Filtering.
chromium --dump-dom "file://$site/index.html?filter=gather" >"$work/index.dom"
total=$(by_name "$site/index.html" | wc -l)
expected=$(by_name "$site/index.html" | grep -c 'data-key="[^"]*gather' || true)
[ "$total" -gt 0 ] || fail "the index lists no instructions"
[ "$expected" -gt 0 ] || fail "no instruction matches 'gather' in $spec_dir"
by_name "$work/index.dom" >"$work/by-name.dom"
[ "$(wc -l <"$work/by-name.dom")" -eq "$total" ] || fail "DOM list length differs from the page"
visible=$(grep -vc 'hidden=""' "$work/by-name.dom" || true)
[ "$visible" -eq "$expected" ] || fail "filter shows $visible entries, expected $expected"
if grep -v 'hidden=""' "$work/by-name.dom" | grep -qv 'data-key="[^"]*gather'; then
    fail "a visible entry does not match the filter"
fi
if grep 'hidden=""' "$work/by-name.dom" | grep -q 'data-key="[^"]*gather'; then
    fail "a matching entry is hidden"
fi
grep -q "<span id=\"filter-count\">$expected of $total shown</span>" "$work/index.dom" ||
    fail "count line does not say '$expected of $total shown'"
echo "filter: $expected of $total entries match 'gather'"

# 2. Follow the link to GATHER_SCALED.
href=$(grep -v 'hidden=""' "$work/by-name.dom" | grep -o 'href="[^"]*">GATHER_SCALED</a>' |
    head -n 1 | sed 's/^href="\([^"]*\)".*/\1/')
[ -n "$href" ] || fail "no visible link to GATHER_SCALED after filtering"
page_url="file://$site/$href"
chromium --dump-dom "$page_url" >"$work/page.dom"
chromium --screenshot="$shots/GATHER_SCALED.png" --window-size=1200,1600 "$page_url" >/dev/null
sed -n '/id="field-Num_blocks"/,/<\/section>/p' "$work/page.dom" >"$work/num_blocks.dom"
[ -s "$work/num_blocks.dom" ] || fail "no element with id field-Num_blocks"
grep -q '<table class="codes">' "$work/num_blocks.dom" || fail "Num_blocks has no codes table"
for code in 0b00 0b01 0b10; do
    grep -q "<tr><td><code>$code</code></td>" "$work/num_blocks.dom" ||
        fail "Num_blocks codes table lacks $code"
done
[ -s "$shots/GATHER_SCALED.png" ] || fail "no screenshot"
echo "page: $href shows the Num_blocks codes table; screenshot $shots/GATHER_SCALED.png"

# Byte offset of the first occurrence of a fixed string in a file (empty when it is absent).
offset_of() {
    { grep -b -o -F -- "$2" "$1" || true; } | head -n 1 | cut -d: -f1
}

# 3. The guide, through the index's navigation.
guide_href=$({ grep -o '<a href="[^"]*">Guide</a>' "$work/index.dom" || true; } | head -n 1 |
    sed 's/^<a href="\([^"]*\)".*/\1/')
[ -n "$guide_href" ] || fail "the index has no Guide link"
chromium --dump-dom "file://$site/$guide_href" >"$work/guide.dom"
chromium --screenshot="$shots/guide.png" --window-size=1200,1600 "file://$site/$guide_href" >/dev/null
grep -q '<h2 id="declarations">Declarations</h2>' "$work/guide.dom" ||
    fail "the guide has no Declarations heading"
grep -q '<a href="#declarations">Declarations</a>' "$work/guide.dom" ||
    fail "the guide's table of contents does not link the Declarations heading"
grep -q '<pre class="example">' "$work/guide.dom" || fail "the guide shows no example"
echo "guide: $guide_href has the Declarations heading and its contents link"

# 4. An instruction page: syntax, then examples, then the encoding, in DOM order.
chromium --dump-dom "file://$site/ADD.html" >"$work/add.dom"
syntax_at=$(offset_of "$work/add.dom" '<section id="syntax">')
examples_at=$(offset_of "$work/add.dom" '<section id="examples">')
encoding_at=$(offset_of "$work/add.dom" '<section id="encoding">')
[ -n "$syntax_at" ] || fail "ADD.html has no syntax section"
[ -n "$examples_at" ] || fail "ADD.html has no examples section"
[ -n "$encoding_at" ] || fail "ADD.html has no encoding section"
[ "$syntax_at" -lt "$examples_at" ] || fail "ADD.html: the examples come before the syntax"
[ "$examples_at" -lt "$encoding_at" ] || fail "ADD.html: the encoding comes before the examples"
sed -n '/<section id="examples">/,/<\/section>/p' "$work/add.dom" >"$work/add-examples.dom"
grep -q '<pre class="example">' "$work/add-examples.dom" || fail "ADD.html: an example without code"
grep -q 'class="mnemonic" href="ADD.html"' "$work/add-examples.dom" ||
    fail "ADD.html: the example's mnemonic does not link to its page"
echo "page: ADD.html shows syntax (byte $syntax_at), examples ($examples_at), encoding ($encoding_at)"
echo "browser test passed"
