#!/usr/bin/env bash
# What watching costs: CPU time and peak memory of `gpudoctor watch` over N
# samples, against the same polling done the ways people do it today, on the
# same machine and the same (fake, tests/fakes) driver library:
#   - gpustat's way: one Python process polling NVML through ctypes (as pynvml
#     does) with /proc for the processes: bench/nvml-poll.py;
#   - a shell loop starting one process per sample, as `while :; do nvidia-smi;
#     sleep 1; done` does: bench/nvml-poll.py --samples 1 each time;
#   - where nvidia-smi and gpustat exist (a machine with a driver), those too.
# Also the first frame: how long `gpudoctor watch --count 1` takes from start
# to its first sample (the median of 20 runs).
#
#   bench/watch.sh [SAMPLES] [INTERVAL]      (default 60 samples at 1 s)
#
# Targets (docs/watch.md): under 0.5 % of one core at 1 s, under 8 MB, the
# first frame under 50 ms.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${GPUDOCTOR:-$here/build/gpudoctor}
samples=${1:-60}
interval=${2:-1}
scenario=$here/tests/scenarios/watch/busy-and-hot
[ -x "$bin" ] || { echo "build first: make" >&2; exit 2; }
[ -e "$here/build/fakes/libnvidia-ml.so.1" ] || { echo "build the fake driver first: make fakes" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-watch.XXXXXX")
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/cluster/machine.sh disable=SC1091
. "$here/tests/cluster/machine.sh"
fakeenv=$(scenario_machine "$scenario" "$dir/root" "$here/build/fakes") || { echo "cannot build the machine" >&2; exit 2; }
export "${fakeenv?}"
lib=$(readlink -f "$dir/root/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1")
wall=$(awk -v n="$samples" -v i="$interval" 'BEGIN { print n * i }')

# measure NAME COMMAND...: user+system CPU seconds of it and its children, peak RSS (kB)
measure() {
	local name=$1; shift
	/usr/bin/time -f "%U %S %M" -o "$dir/time" "$@" >/dev/null 2>"$dir/err" || { echo "$name: failed: $(head -n 3 "$dir/err")" >&2; return 1; }
	read -r user sys rss <"$dir/time"
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')
	printf "%-34s cpu %7.3f s  %6.3f %% of a core  peak %6.1f MB\n" "$name" "$cpu" \
		"$(awk -v c="$cpu" -v w="$wall" 'BEGIN { printf "%.3f", 100 * c / w }')" "$(awk -v r="$rss" 'BEGIN { printf "%.1f", r / 1024 }')"
}

echo "$samples samples at $interval s, 2 GPUs (fake driver, $scenario)"
measure "gpudoctor watch" "$bin" watch --plain -i "$interval" --count "$samples" --root "$dir/root" --load-root-libraries
g_cpu=$cpu g_rss=$rss
measure "python polling (gpustat's way)" python3 "$here/bench/nvml-poll.py" "$lib" --samples "$samples" --interval "$interval"
p_cpu=$cpu p_rss=$rss
# shellcheck disable=SC2016 # the loop's own arguments, expanded by the inner bash
measure "a process per sample (shell loop)" bash -c 'for ((k = 0; k < $1; k++)); do python3 "$2" "$3" --samples 1; sleep "$4"; done' _ \
	"$samples" "$here/bench/nvml-poll.py" "$lib" "$interval"
l_cpu=$cpu l_rss=$rss
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
	measure "nvidia-smi -l (real driver)" timeout "$wall" nvidia-smi -l "$interval"
fi
if command -v gpustat >/dev/null && gpustat >/dev/null 2>&1; then
	measure "gpustat -i (real driver)" timeout "$wall" gpustat -i "$interval"
fi
awk -v g="$g_cpu" -v p="$p_cpu" -v l="$l_cpu" -v gr="$g_rss" -v pr="$p_rss" -v lr="$l_rss" 'BEGIN {
	printf "ratios: python polling uses %.0fx the CPU and %.1fx the memory of gpudoctor watch; a process per sample %.0fx the CPU\n",
		(g > 0 ? p / g : 0), (gr > 0 ? pr / gr : 0), (g > 0 ? l / g : 0) }'

# First frame: start to first sample, the median of 20 runs.
for _ in $(seq 20); do
	s=$(date +%s%N)
	"$bin" watch --plain --count 1 --root "$dir/root" --load-root-libraries >/dev/null 2>&1
	e=$(date +%s%N)
	echo $(((e - s) / 1000))
done | sort -n | awk '{ v[NR] = $1 } END { printf "first frame (watch --count 1, start to exit): median %.1f ms, min %.1f ms\n", v[int((NR + 1) / 2)] / 1000, v[1] / 1000 }'
