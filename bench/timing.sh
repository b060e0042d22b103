# timing.sh - sourced by the bench scripts: median wall time and peak memory of a command.
# Needs GNU time (/usr/bin/time) for peak memory.

now_ns() { date +%s%N; }

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# time_cmd RUNS CMD... -> prints "median_ms peak_kib"
# Each sample times a batch of back-to-back runs, so that the shell's own
# cost of reading the clock does not swamp a command that takes milliseconds;
# peak memory comes from GNU time on separate runs.
time_cmd() {
	local n=$1 i j t0 t1 batch ms=() kib=()
	shift
	"$@" >/dev/null 2>&1	# warm-up: page cache, Python bytecode
	t0=$(now_ns)
	"$@" >/dev/null 2>&1
	t1=$(now_ns)
	batch=$(( 200000000 / (t1 - t0 + 1) ))	# about 0.2 s per sample
	[ "$batch" -lt 1 ] && batch=1
	[ "$batch" -gt 100 ] && batch=100
	for ((i = 0; i < n; i++)); do
		t0=$(now_ns)
		for ((j = 0; j < batch; j++)); do "$@" >/dev/null 2>&1; done
		t1=$(now_ns)
		ms+=("$(awk -v a="$t0" -v b="$t1" -v k="$batch" 'BEGIN { printf "%.3f", (b - a) / 1e6 / k }')")
		/usr/bin/time -f '%M' -o /tmp/gpudoctor-bench.$$ "$@" >/dev/null 2>&1
		kib+=("$(tail -n 1 /tmp/gpudoctor-bench.$$)")
	done
	rm -f /tmp/gpudoctor-bench.$$
	printf '%s %s\n' "$(printf '%s\n' "${ms[@]}" | median)" "$(printf '%s\n' "${kib[@]}" | sort -n | tail -n 1)"
}

