#!/usr/bin/env bash
# Runs one fuzz target for a while: fuzz/run.sh TARGET SECONDS [more libFuzzer flags]
#   fuzz/run.sh build            builds every target once (CI does this before the runs)
#   fuzz/run.sh list             lists the targets
# With a nightly toolchain it builds with AddressSanitizer (cargo +nightly fuzz); without one it
# builds on stable with --sanitizer none. Either way overflow checks and debug assertions are
# on, because an overflow the fuzzer reaches is a panic in a debug build and a wrong answer in
# a release one. New inputs go to fuzz/corpus/TARGET (not committed); the seeds in
# fuzz/seeds/TARGET are read too. A finding is written to fuzz/artifacts/TARGET/ and the run
# fails. FUZZ_TOOLCHAIN=stable or FUZZ_TOOLCHAIN=nightly forces the choice.
set -euo pipefail
cd "$(dirname "$0")"

toolchain=${FUZZ_TOOLCHAIN:-}
if [[ -z $toolchain ]]; then
    if rustup run nightly rustc --version >/dev/null 2>&1; then toolchain=nightly; else toolchain=stable; fi
fi
if [[ $toolchain == nightly ]]; then
    flags=(--debug-assertions)
else
    flags=(--debug-assertions --sanitizer none)
fi
fuzz() { cargo "+$toolchain" fuzz "$@"; }

case ${1:-} in
build)
    echo "fuzz: building every target with $toolchain (${flags[*]})"
    fuzz build "${flags[@]}"
    ;;
list)
    fuzz list
    ;;
"" | -*)
    echo "usage: fuzz/run.sh TARGET SECONDS [libFuzzer flags] | build | list" >&2
    exit 2
    ;;
*)
    target=$1
    seconds=${2:-60}
    shift $(($# < 2 ? $# : 2))
    extra=()
    [[ -f dicts/$target.dict ]] && extra+=("-dict=dicts/$target.dict")
    mkdir -p "corpus/$target" "artifacts/$target"
    echo "fuzz: $target for ${seconds}s with $toolchain (${flags[*]})"
    # -rss_limit_mb: the sandbox target holds a Rhai engine per thread; 2 GiB leaves room
    # without letting a leak pass. -timeout: one input may not take more than 10 s.
    fuzz run "${flags[@]}" "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="artifacts/$target/" "${extra[@]}" "$@"
    ;;
esac
