#!/usr/bin/env bash
# Throughput and memory of `gpudoctor explain` on a large training log,
# against `grep -c -E -f` with the same patterns over the same file.
#
#   bench/explain.sh [SIZE_MB]      (default 1024)
#
# The log is realistic training output (tqdm bars with \r rewrites, loss lines,
# ANSI-coloured warnings, config dumps mentioning cuda/device/memory) with a
# handful of real errors inside. grep gets the catalog's patterns (PCRE named
# groups and (?i) rewritten to ERE) and counts matching lines. Targets: explain
# at least as fast as grep, over 500 MB/s, under 16 MB of memory.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${GPUDOCTOR:-$here/build/gpudoctor}
size_mb=${1:-1024}
[ -x "$bin" ] || { echo "build first: make" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-explain.XXXXXX")
trap 'rm -rf "$dir"' EXIT
log=$dir/train.log

# One 4 MiB block of training output, repeated; the errors go in between.
awk 'BEGIN {
	srand(7)
	while (n < 4194304) {
		i++
		r = rand()
		if (r < 0.55)
			s = sprintf("Epoch %d:  %d%%|%s| %d/3000 [02:11<03:08, 9.37it/s, loss=%.4f, v_num=7]\r", i % 90, i % 100, substr("##########          ", 1 + i % 10, 10), i % 3000, rand())
		else if (r < 0.85)
			s = sprintf("step %d | loss %.4f | lr 3.0e-04 | grad_norm %.3f | tokens/s 51234 | gpu_mem 61.2GB | device cuda:%d\n", i, rand(), rand() * 2, i % 8)
		else if (r < 0.95)
			s = sprintf("\033[33m[W %s] Warning: the memory_format argument of Tensor.to is deprecated; error_rate=%.3f\033[0m\n", "2024-05-01 12:00:00", rand())
		else
			s = sprintf("  model.layers.%d.self_attn.q_proj: Linear(in_features=4096, out_features=4096, bias=False) device=cuda dtype=bfloat16\n", i % 32)
		printf "%s", s
		n += length(s)
	}
}' >"$dir/block"
errors=(
	'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 7.79 GiB total capacity; 5.12 GiB already allocated; 1.23 GiB free; 6.00 GiB reserved in total by PyTorch)'
	'[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600046 milliseconds before timing out.'
	'[ 1234.567890] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.'
	'RuntimeError: CUDA error: device-side assert triggered'
)
blocks=$((size_mb / 4))
for ((b = 0; b < blocks; b++)); do
	cat "$dir/block"
	[ $((b % (blocks / 4 + 1))) = 0 ] && printf '%s\n' "${errors[$(( (b / (blocks / 4 + 1)) % 4 ))]}"
done >"$log"
bytes=$(stat -c %s "$log")

# The catalog's patterns for grep -E: named groups become plain groups, (?i) becomes -i for all. Only the
# messages, which explain scans over the whole log: the prose rows (context.*, topics, trouble reported) it
# scans over the first 8 MiB only, and their word lists would make grep's automaton, not the comparison, slow.
awk -F '\t' '!/^#/ && NF >= 4 && !header++ { next }
	!/^#/ && NF >= 4 && $2 != "@topic" && $2 != "@trouble" && $1 !~ /^context\./ { print $4 }' \
	"${DATA:-$here/data}/explain_signatures.tsv" |
	sed -E 's/\(\?<[a-z_]+>/(/g; s/\(\?P<[a-z_]+>/(/g; s/\(\?i\)//g; s/\(\?:/(/g; s/\\d/[0-9]/g; s/\\s/[[:space:]]/g; s/\\w/[[:alnum:]_]/g' >"$dir/patterns"
npat=$(wc -l <"$dir/patterns")

run() {	# NAME CMD... -> seconds peak_kib
	local best=999999999999999 kib t0 t1
	for i in 1 2 3; do
		t0=$(date +%s%N)
		/usr/bin/time -f '%M' -o "$dir/kib" "$@" >"$dir/out" 2>/dev/null
		t1=$(date +%s%N)
		[ $((t1 - t0)) -lt "$best" ] && best=$((t1 - t0))
	done
	kib=$(tail -n 1 "$dir/kib")
	awk -v ns="$best" -v k="$kib" 'BEGIN { printf "%.3f %d\n", ns / 1e9, k }'
}
cat "$log" >/dev/null	# page cache
read -r ex_s ex_kib < <(run "$bin" explain --json "$log")
top=$(jq -r '[.causes[].id] | join(" ")' "$dir/out")
read -r gr_s gr_kib < <(run grep -c -i -E -f "$dir/patterns" "$log")
grep_count=$(cat "$dir/out")
awk -v b="$bytes" -v e="$ex_s" -v ek="$ex_kib" -v g="$gr_s" -v gk="$gr_kib" -v n="$npat" -v top="$top" -v gc="$grep_count" 'BEGIN {
	printf "log: %.0f MB of training output with 4 errors; %d patterns\n", b / 1e6, n
	printf "gpudoctor explain  %7.3f s  %7.0f MB/s  peak %6.1f MB   causes: %s\n", e, b / 1e6 / e, ek / 1024, top
	printf "grep -c -i -E -f   %7.3f s  %7.0f MB/s  peak %6.1f MB   matching lines: %s\n", g, b / 1e6 / g, gk / 1024, gc
	printf "speed ratio: explain is %.1fx the speed of grep (target >= 1), %.0f MB/s (target > 500), %.1f MB (target < 16)\n", g / e, b / 1e6 / e, ek / 1024
	exit !(g / e >= 1 && b / 1e6 / e > 500 && ek < 16384)
}'
