#!/usr/bin/env bash
# A shared conda install with many environments (clusters have hundreds to
# thousands), torch installed only in the last one: how long does the
# doctor take to find it, and does it? Writes N environments of real shape
# (bin/python, lib/pythonX.Y/site-packages, conda-meta) under a temporary
# home, then times `gpudoctor doctor --static` there, warm (the files just
# written are in the page cache) over several runs.
#
#   bench/many-envs.sh [N] [BINARY]     (default 10000, build/gpudoctor)
set -eu
n=${1:-10000}
bin=${2:-build/gpudoctor}
py=$(command -v python3)
ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
home=$tmp/home/u
envs=$home/miniconda3/envs
# As conda lays an environment out: bin/python -> python3.X, a file of its
# own. (Under --static nothing is run, so an empty executable stands for it.)
make_env() {
	mkdir -p "$1/bin" "$1/lib/python$ver/site-packages" "$1/conda-meta"
	: >"$1/bin/python$ver"
	chmod 755 "$1/bin/python$ver"
	ln -s "python$ver" "$1/bin/python"
}
mkdir -p "$envs"
make_env "$home/miniconda3"
for ((i = 1; i <= n; i++)); do
	make_env "$envs/env$i"
done
last=$envs/env$n/lib/python$ver/site-packages/torch
mkdir -p "$last"
printf "__version__ = '2.4.1+cu121'\ncuda = '12.1'\nhip = None\ndebug = False\n" >"$last/version.py"
run() { env -i HOME="$home" PATH=/usr/bin:/bin "$bin" doctor --static --json || true; }
found=$(run | jq -r --arg t "$last" '[.facts.python.torch[]?.dir] | index($t) != null')
echo "environments: $n; torch in the last one found: $found"
for k in 1 2 3 4 5; do
	/usr/bin/time -f "run $k: %e s wall, %M KiB peak" env -i HOME="$home" PATH=/usr/bin:/bin "$bin" doctor --static --json >/dev/null || true
done
