#!/usr/bin/env bash
# Runs one fuzz target for a while: fuzz/run.sh TARGET SECONDS [more libFuzzer flags]
#   fuzz/run.sh build            builds every target once (CI does this before the runs)
#   fuzz/run.sh list             lists the targets
#   fuzz/run.sh cpu TARGET CPU_SECONDS [flags]
#                                runs until the fuzzer has used CPU_SECONDS of CPU time (user +
#                                system, read from /proc), however long that takes on a shared
#                                machine: the form for the one-CPU-hour runs of docs/fuzzing.md
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

# run TARGET SECONDS [flags]: one libFuzzer run over the target's corpus and seeds.
run() {
    local target=$1 seconds=$2
    shift 2
    local extra=()
    [[ -f dicts/$target.dict ]] && extra+=("-dict=dicts/$target.dict")
    mkdir -p "corpus/$target" "artifacts/$target"
    # -rss_limit_mb: the sandbox target holds a Rhai engine per thread; 2 GiB leaves room
    # without letting a leak pass. -timeout: one input may not take more than 10 s (a later
    # -timeout in the extra flags wins).
    fuzz run "${flags[@]}" "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="artifacts/$target/" "${extra[@]}" "$@"
}

# The CPU time (user + system, in seconds) that process $1 has used so far.
cpu_seconds() {
    local stat
    stat=$(<"/proc/$1/stat") || return 1
    # Fields 14 and 15 (utime, stime) counted after the command name, which may hold spaces.
    stat=${stat##*) }
    read -r -a fields <<<"$stat"
    echo $(((fields[11] + fields[12]) / $(getconf CLK_TCK)))
}

case ${1:-} in
cpu)
    target=${2:?usage: fuzz/run.sh cpu TARGET CPU_SECONDS [flags]}
    budget=${3:?usage: fuzz/run.sh cpu TARGET CPU_SECONDS [flags]}
    shift 3
    fuzz build "${flags[@]}" "$target"
    echo "fuzz: $target until it has used ${budget} CPU-s, with $toolchain (${flags[*]})"
    # No wall-clock end, and a per-input timeout that a busy machine cannot trip by itself:
    # on a shared machine a nice'd fuzzer may wait seconds for a core.
    run "$target" 0 -timeout=120 "$@" &
    runner=$!
    pid=
    while kill -0 "$runner" 2>/dev/null; do
        sleep 5
        [[ -n $pid ]] || pid=$(pgrep -n -f "/release/${target}( |$)" || true)
        [[ -n $pid ]] || continue
        used=$(cpu_seconds "$pid") || continue
        if ((used >= budget)); then
            echo "fuzz: $target has used ${used} CPU-s; stopping it"
            kill -INT "$pid"
            break
        fi
    done
    # libFuzzer exits non-zero when interrupted; a finding is the artifact it leaves. A
    # `slow-unit-*` is not one: it only says an input took over 10 s of wall-clock time, which
    # a paused or crowded fuzzer reports for inputs that run in a fraction of a second.
    wait "$runner" || true
    if compgen -G "artifacts/$target/[!s]*" >/dev/null; then
        echo "fuzz: $target left findings in fuzz/artifacts/$target/" >&2
        exit 1
    fi
    ;;
build)
    echo "fuzz: building every target with $toolchain (${flags[*]})"
    fuzz build "${flags[@]}"
    ;;
list)
    fuzz list
    ;;
"" | -*)
    echo "usage: fuzz/run.sh TARGET SECONDS [libFuzzer flags] | cpu TARGET CPU_SECONDS | build | list" >&2
    exit 2
    ;;
*)
    target=$1
    seconds=${2:-60}
    shift $(($# < 2 ? $# : 2))
    echo "fuzz: $target for ${seconds}s with $toolchain (${flags[*]})"
    run "$target" "$seconds" "$@"
    ;;
esac
