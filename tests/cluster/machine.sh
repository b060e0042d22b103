# shellcheck shell=bash
# tests/cluster/machine.sh - sourced by the cluster tests: a scenario's machine
# to run a command on, as tests/run-scenarios builds it (docs/fake-gpu.md).
#
# scenario_machine SCENARIO_DIR DEST FAKES_DIR: copy the scenario's root to DEST
# with the fake driver libraries installed where its gpu.json says, and print the
# environment assignment that points them at that gpu.json (nothing without one).
scenario_machine() {
	local s=$1 r=$2 fakes=$3 ver inst lib
	mkdir -p "$r" && cp -a "$(readlink -f "$s/root")/." "$r/" || return 1
	[[ -f $s/gpu.json ]] || return 0
	ver=$(jq -r '.driver_version // "535.104.05"' "$s/gpu.json")
	for inst in $(jq -r '(.install // ["/usr/lib/x86_64-linux-gnu"])[]' "$s/gpu.json"); do
		mkdir -p "$r$inst"
		for lib in libcuda libnvidia-ml; do
			cp "$fakes/$lib.so.1" "$r$inst/$lib.so.$ver"
			ln -sf "$lib.so.$ver" "$r$inst/$lib.so.1"
		done
	done
	echo "GPUDOCTOR_FAKE_GPU=$(readlink -f "$s/gpu.json")"
}
