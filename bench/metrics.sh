#!/usr/bin/env bash
# gpudoctor metrics: how long one Prometheus exposition of 8 GPUs takes to
# render (target: well under 5 ms), timed by tests/unit/test_metrics.c built
# without the sanitizers (make bench builds it as build/bench/test_metrics).
# Reported, not a pass/fail test.
#
#   bench/metrics.sh
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
prog=$repo/build/bench/test_metrics
[[ -x $prog ]] || { echo "metrics.sh: build it first: make build/bench/test_metrics" >&2; exit 2; }
"$prog" 2>&1 | grep '^metrics: one exposition'
