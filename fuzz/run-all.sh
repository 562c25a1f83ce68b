#!/usr/bin/env bash
# Runs every fuzz target in turn (one at a time: the machine is shared), each for
# ${FUZZ_SECONDS:-600} seconds, in libFuzzer's fork mode so a crash, hang or out-of-memory is
# saved to artifacts/<target>/ and the run goes on. The targets are built once
# (`cargo fuzz build`) and the binaries run directly. Logs go to logs/<target>.log; their last
# lines are the coverage and execution figures docs/FUZZING.md records.
#   nice -n 19 fuzz/run-all.sh [target…]
set -uo pipefail
cd "$(dirname "$0")"
seconds=${FUZZ_SECONDS:-600}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(threejs threejs_legacy playcanvas lottie gltf glb cycle config_toml baseline round_trip packed)
[ -d corpus ] || ./seed-corpus.sh
mkdir -p logs
cargo +nightly fuzz build || exit 1
bin=target/x86_64-unknown-linux-gnu/release
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    echo "== $t: $seconds s" >&2
    "$bin/$t" "corpus/$t" -artifact_prefix="artifacts/$t/" \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
        -print_final_stats=1 > "logs/$t.log" 2>&1
    tail -n 3 "logs/$t.log" >&2
done
