#!/usr/bin/env bash
# Times `gpudoctor doctor` against PyTorch's own `python3 -m torch.utils.collect_env`
# on this machine and prints the medians, their ratio and both peak memories.
#
#   bench/doctor-vs-collect-env.sh [RUNS]     (default 11 doctor runs, 3 collect_env runs)
#
# Needs GNU time (/usr/bin/time, Debian package `time`) for peak memory, and a
# Python with torch (e.g. Debian's python3-torch) for the peer; without one the
# doctor is still timed. Targets: doctor >= 100x faster, < 10 MB peak.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${GPUDOCTOR:-$here/build/gpudoctor}
runs=${1:-11}
peer_runs=${PEER_RUNS:-3}
[ -x "$bin" ] || { echo "build first: make" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 2; }

. "$here/bench/timing.sh"

find_torch_python() {
	local py
	for py in "${PYTHON:-}" python3 /usr/bin/python3; do
		[ -n "$py" ] || continue
		command -v "$py" >/dev/null 2>&1 || continue
		"$py" -c 'import torch' >/dev/null 2>&1 && { command -v "$py"; return 0; }
	done
	return 1
}

read -r doc_ms doc_kib < <(time_cmd "$runs" "$bin" doctor --json)
read -r info_ms info_kib < <(time_cmd "$runs" "$bin" info --json)
read -r true_ms true_kib < <(time_cmd "$runs" /bin/true)
printf 'gpudoctor doctor     median %8.2f ms   peak %6d KiB   (%d samples)\n' "$doc_ms" "$doc_kib" "$runs"
printf 'gpudoctor info       median %8.2f ms   peak %6d KiB   (%d samples)\n' "$info_ms" "$info_kib" "$runs"
printf '/bin/true            median %8.2f ms   (the cost of starting any process here)\n' "$true_ms"

if ! py=$(find_torch_python); then
	echo "no Python with torch found: collect_env not timed (apt-get install python3-torch)"
	exit 0
fi
read -r ce_ms ce_kib < <(time_cmd "$peer_runs" "$py" -m torch.utils.collect_env)
read -r deep_ms deep_kib < <(time_cmd "$peer_runs" "$bin" doctor --json --deep --python "$py")
read -r imp_ms imp_kib < <(time_cmd "$peer_runs" "$py" -c 'import torch; torch.cuda.is_available()')
printf 'doctor --deep        median %8.2f ms   peak %6d KiB   (imports torch in %s)\n' "$deep_ms" "$deep_kib" "$py"
# import torch alone varies by hundreds of milliseconds run to run here: the
# overhead is the median of paired differences, each pair run back to back.
pairs=()
# (the order alternates, so that whatever the first of two runs pays evens out)
for ((i = 0; i < ${DEEP_PAIRS:-10}; i++)); do
	t0=$(now_ns)
	if ((i % 2)); then "$py" -c 'import torch; torch.cuda.is_available()' >/dev/null 2>&1
	else "$bin" doctor --json --deep --python "$py" >/dev/null 2>&1; fi
	t1=$(now_ns)
	if ((i % 2)); then "$bin" doctor --json --deep --python "$py" >/dev/null 2>&1
	else "$py" -c 'import torch; torch.cuda.is_available()' >/dev/null 2>&1; fi
	t2=$(now_ns)
	pairs+=("$(awk -v a="$t0" -v b="$t1" -v c="$t2" -v odd=$((i % 2)) \
		'BEGIN { d = (b - a) - (c - b); if (odd) d = -d; printf "%.1f", d / 1e6 }')")
done
printf 'import torch alone   median %8.2f ms   (deep probe overhead: %s ms, median of %d paired runs; target < 100 ms)\n' \
	"$imp_ms" "$(printf '%s\n' "${pairs[@]}" | median)" "${#pairs[@]}"
printf 'collect_env          median %8.2f ms   peak %6d KiB   (%d runs, %s)\n' "$ce_ms" "$ce_kib" "$peer_runs" "$py"
awk -v a="$ce_ms" -v b="$doc_ms" -v d="$deep_ms" -v ma="$ce_kib" -v mb="$doc_kib" 'BEGIN {
	printf "speed ratio: doctor is %.0fx faster than collect_env (target >= 100x)\n", a / b
	printf "speed ratio: doctor --deep is %.1fx faster than collect_env\n", a / d
	printf "peak memory: doctor %.1f MB vs collect_env %.1f MB (target < 10 MB)\n", mb / 1024, ma / 1024
}'
