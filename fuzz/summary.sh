#!/usr/bin/env bash
# Prints one Markdown table row per fuzz log in logs/ (or the folder given): executions, coverage (edges and
# features) at the end and halfway, corpus size, and the crashes, hangs and out-of-memory runs
# libFuzzer's fork mode counted (the table in docs/FUZZING.md).
cd "$(dirname "$0")"
logs=${1:-logs}
for log in "$logs"/*.log; do
    t=$(basename "$log" .log)
    last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1)
    [ -n "$last" ] || continue
    total=$(sed -E 's/.* time: ([0-9]+)s.*/\1/' <<<"$last")
    half=$(grep -E '^#[0-9]+: cov:' "$log" | awk -v h=$((total / 2)) '{
        for (i = 1; i <= NF; i++) if ($i == "time:") { t = $(i + 1); sub("s", "", t) }
        if (t + 0 <= h) line = $0 } END { print line }')
    field() { sed -E "s|.* $1: ([0-9/]+).*|\1|" <<<"$2"; }
    execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
    printf '| %s | %s s | %s | %s (%s halfway) | %s (%s halfway) | %s | %s |\n' \
        "$t" "$total" "$execs" "$(field cov "$last")" "$(field cov "$half")" \
        "$(field ft "$last")" "$(field ft "$half")" "$(field corp "$last")" \
        "$(field 'oom/timeout/crash' "$last")"
done
