#!/usr/bin/env bash
# gpudoctor fleet at scale: 10,000 reports (copies of real doctor reports of
# scenario roots, each given its own hostname, a few given another driver,
# one corrupt) merged from a directory and from a stream on stdin. Prints
# the wall time and peak memory of each (target: under 1 s and 100 MB).
#
#   bench/fleet.sh [N]     (default 10000; needs jq and /usr/bin/time)
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=${GPUDOCTOR:-$repo/build/gpudoctor}
n=${1:-10000}
work=$(mktemp -d "${TMPDIR:-/tmp}/fleet-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
[[ -x /usr/bin/time ]] || { echo "fleet.sh: needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }

# Real reports: the doctor run over scenario roots (static ones: no fake driver needed).
scen=(machines/healthy-2x-a100 machines/server-driver-upgraded-no-reboot machines/three-toolkits-stale-cuda-home
      machines/docker-started-without-gpus machines/workstation-nouveau-rtx3090)
i=0
for s in "${scen[@]}"; do
	d=$repo/tests/scenarios/$s
	env_vars=()
	[[ -f $d/env ]] && mapfile -t env_vars < <(grep -v '^#' "$d/env" | grep .)
	env -i ${env_vars[@]+"${env_vars[@]}"} "$bin" --json --root "$d/root" >"$work/base$i.json" || true
	i=$((i + 1))
done
# Copies: most of the fleet healthy, some of each failure; every 997th on another driver.
# The files as the doctor writes them (indented), the stream one report per line.
mkdir -p "$work/reports"
jq '.facts.driver.version = "550.90.07"' "$work/base0.json" >"$work/base5.json"
for b in 0 1 2 3 4 5; do jq -c . "$work/base$b.json" >"$work/c$b.json"; done
awk -v n="$n" -v dir="$work/reports" -v w="$work" '
BEGIN {
	RS = "^$"
	for (b = 0; b <= 5; b++) {
		getline full[b] < (w "/base" b ".json"); close(w "/base" b ".json")
		getline line[b] < (w "/c" b ".json"); close(w "/c" b ".json")
		sub(/\n$/, "", line[b])
	}
	for (k = 1; k <= n; k++) {
		b = (k % 997 == 0) ? 5 : (k % 50 == 0) ? 1 : (k % 101 == 0) ? 2 : (k % 211 == 0) ? 3 : (k % 307 == 0) ? 4 : 0
		name = sprintf("node%05d", k)
		s = full[b]; sub(/"system": \{/, "\"system\": { \"hostname\": \"" name "\",", s)
		f = sprintf("%s/%s.json", dir, name)
		printf "%s", s > f; close(f)
		s = line[b]; sub(/"system":\{/, "\"system\":{\"hostname\":\"" name "\",", s)
		print s > (w "/stream.ndjson")
	}
}'
printf '{"schema": "gpudoctor.report/1", "verdict": ' >"$work/reports/corrupt.json"
size=$(cat "$work"/reports/*.json | wc -c)
echo "fleet: $n reports ($((size / 1000000)) MB) of ${#scen[@]} scenarios, merged from a directory and from stdin"
for how in directory stdin; do
	if [[ $how == directory ]]; then args=("$work/reports"); in=/dev/null; else args=(-); in=$work/stream.ndjson; fi
	/usr/bin/time -o "$work/time" -f "%e s (user %U s, sys %S s), peak %M KiB" "$bin" fleet "${args[@]}" <"$in" >"$work/out.txt" || true
	echo "  $how: $(cat "$work/time" | grep -v 'exited with')"
	echo "    $(head -n 1 "$work/out.txt")"
done
