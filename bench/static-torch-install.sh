#!/usr/bin/env bash
# Times gpudoctor's static analysis of a full-size CUDA PyTorch install.
#
#   bench/static-torch-install.sh [RUNS]      (default 11)
#
# bench/make-torch-install.py writes a synthetic, real-shaped pip install of
# torch 2.4.1+cu121 with its nvidia-* wheels (about 3.5 GB apparent, sparse on
# disk; a 1 GiB fat binary of 40,000 entries in libtorch_cuda.so) into
# $TMPDIR. `gpudoctor doctor --static --python VENV/bin/python3` then reads it
# all: interpreters, dist-info, version.py, the ELF dynamic sections, where
# each CUDA library resolves, the fat binary's architectures. The peer is
# Python doing a small part of that: importlib.metadata reading torch's
# version from the same install. Targets: under 50 ms and under 10 MB.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${GPUDOCTOR:-$here/build/gpudoctor}
runs=${1:-11}
[ -x "$bin" ] || { echo "build first: make" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3 to write the install" >&2; exit 2; }
. "$here/bench/timing.sh"

dir=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-torch-install.XXXXXX")
trap 'rm -rf "$dir"' EXIT
venv=$(python3 "$here/bench/make-torch-install.py" "$dir") || exit 1
printf 'install: %s (%s apparent, %s on disk)\n' "$venv" "$(du -sh --apparent-size "$dir" | cut -f1)" \
	"$(du -sh "$dir" | cut -f1)"

# The analysis must have read what it claims: the build, its libraries, its architectures.
facts=$("$bin" info --json --static --python "$venv/bin/python3" | jq -c --arg d "$venv" \
	'[.facts.python.torch[] | select(.dir | startswith($d))][0] | [.version, (.cuda_libraries | length), .archs.sass]')
echo "read: $facts"
[ "$facts" = '["2.4.1+cu121",9,[50,60,70,75,80,86,90]]' ] || { echo "the analysis did not read the install fully" >&2; exit 1; }

read -r doc_ms doc_kib < <(time_cmd "$runs" "$bin" doctor --json --static --python "$venv/bin/python3")
read -r base_ms base_kib < <(time_cmd "$runs" "$bin" doctor --json --static)
read -r py_ms py_kib < <(time_cmd "$runs" "$venv/bin/python3" -c 'import importlib.metadata as m; m.version("torch")')
printf 'doctor --static on the install  median %8.2f ms   peak %6d KiB\n' "$doc_ms" "$doc_kib"
printf 'doctor --static, no --python    median %8.2f ms   peak %6d KiB   (the rest of the diagnosis)\n' "$base_ms" "$base_kib"
printf 'python3 importlib.metadata      median %8.2f ms   peak %6d KiB   (the peer: the version only)\n' "$py_ms" "$py_kib"
awk -v d="$doc_ms" -v k="$doc_kib" -v p="$py_ms" 'BEGIN {
	printf "static analysis of a full CUDA torch install: %.1f ms (target < 50 ms), %.1f MB (target < 10 MB)\n", d, k / 1024
	printf "speed ratio: the whole analysis is %.1fx faster than Python reading the version alone\n", p / d
	exit !(d < 50 && k < 10240)
}'
