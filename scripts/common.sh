# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# Copyright(c) 2026 The turbomem authors
#
# Shell helpers shared by the turbomem scripts and test scripts (sourced,
# not run). A script sets tm_name before sourcing to name itself in its
# messages (default: its file name).

# (No external command but dirname here: valgrind traces the test
# wrappers' children, and skips dirname.)
tm_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tm_name=${tm_name:-${0##*/}}

# log MSG: one line on stderr, named after the script.
log() { printf '[%s] %s\n' "$tm_name" "$*" >&2; }
# die MSG: a usage or environment error.
die() { log "error: $*"; exit 1; }
# fail MSG: a failed check; the last lines of $fail_log when it is set.
fail() {
	log "FAIL: $*"
	if [ -n "${fail_log:-}" ] && [ -f "$fail_log" ]; then
		tail -30 "$fail_log" >&2
	fi
	exit 1
}

# wait_for FILE PATTERN SECONDS [PID]: 0 once a line of FILE matches
# PATTERN (grep); 1 after SECONDS, or once process PID has exited without
# writing it.
wait_for() {
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		if [ -n "${4:-}" ] && ! kill -0 "$4" 2>/dev/null; then
			grep -q "$2" "$1" 2>/dev/null
			return
		fi
		sleep 0.1
	done
	return 1
}

# stop_process PID: SIGINT (a DPDK application cleans up), SIGKILL when
# it is still there 5 s later. Nothing when PID is empty or gone.
stop_process() {
	local i
	[ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 0
	kill -INT "$1" 2>/dev/null || true
	for ((i = 0; i < 50; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null || true
}

# pick_tool NAME DEFAULT-PATH: the distribution's tool when present (so a
# pip or pyenv meson earlier on PATH is not picked up), else NAME on PATH.
pick_tool() {
	if [ -x "$2" ]; then
		echo "$2"
	elif command -v "$1" >/dev/null 2>&1; then
		command -v "$1"
	else
		return 1
	fi
}

# find_meson: set MESON and NINJA (kept when already set).
find_meson() {
	MESON=${MESON:-$(pick_tool meson /usr/bin/meson)} ||
		die "meson not found (run scripts/deps.sh)"
	NINJA=${NINJA:-$(pick_tool ninja /usr/bin/ninja)} ||
		die "ninja not found (run scripts/deps.sh)"
}

# meson_configure DIR [meson setup options...]
# Configure DIR (source: the repository, plus TM_MESON_OPTS), or
# reconfigure it with the given options if it exists; wipe it if it
# cannot be reconfigured (e.g. made by another meson version).
meson_configure() {
	local dir=$1 extra
	shift
	read -r -a extra <<<"${TM_MESON_OPTS:-}"
	local opts=("$@" "${extra[@]}")
	if [ -f "$dir/meson-private/coredata.dat" ]; then
		"$MESON" setup --reconfigure "$dir" "$tm_top" "${opts[@]}" || {
			log "reconfiguring $dir failed; wiping it"
			"$MESON" setup --wipe "$dir" "$tm_top" "${opts[@]}"
		}
	else
		rm -rf "$dir"
		"$MESON" setup "$dir" "$tm_top" "${opts[@]}"
	fi
}

# test_targets DIR "SUITE..." [TEST]: the ninja targets (paths relative to
# DIR) that the tests of those suites depend on, or test TEST alone, from
# meson's introspection.
test_targets() {
	"$MESON" introspect "$1" --tests --targets | python3 -c '
import json, os, sys
d = json.load(sys.stdin)
want = {"turbomem:" + s for s in sys.argv[2].split()}
files = {t["id"]: t["filename"] for t in d["targets"]}
out = set()
for t in d["tests"]:
    if (t["name"] == sys.argv[3]) if sys.argv[3] else (want & set(t["suite"])):
        for i in t.get("depends", []):
            out.update(os.path.relpath(f, sys.argv[1]) for f in files.get(i, []))
print(" ".join(sorted(out)))' "$1" "$2" "${3:-}"
}

# insecure_dir DIR: 0 if DIR or a parent is world-writable, where EAL
# refuses to load a plugin or a driver directory (e.g. anything under /tmp).
insecure_dir() {
	local d=$1
	while :; do
		[ -n "$(find "$d" -maxdepth 0 -perm -0002 2>/dev/null)" ] && return 0
		[ "$d" = / ] && return 1
		d=$(dirname "$d")
	done
}

# tsan_wrapper: the command to run ThreadSanitizer tests under, if any.
# gcc 12's TSan cannot map its shadow memory when the kernel randomises
# mmap with more than 28 bits (vm.mmap_rnd_bits, e.g. 32 on recent Ubuntu
# kernels); the tests then run without ASLR.
tsan_wrapper() {
	local bits
	bits=$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 28)
	if [ "$bits" -gt 28 ] && setarch "$(uname -m)" -R true 2>/dev/null; then
		echo "setarch $(uname -m) -R"
	fi
}

# pmd_path [PKG-CONFIG-ARGS]: RTE_EAL_PMD_PATH of the DPDK that pkg-config
# names, the directory EAL loads plugins from by itself.
pmd_path() {
	# shellcheck disable=SC2046
	printf '#include <rte_build_config.h>\nRTE_EAL_PMD_PATH\n' |
		cc -E -P $(pkg-config --cflags libdpdk) - | tail -1 | tr -d '"'
}

# path_tag PATH: a short hash of PATH, for EAL --file-prefix values that
# two trees (worktrees, sanitizer builds) running at once do not share.
path_tag() {
	printf '%s' "$1" | cksum | cut -d' ' -f1
}

# eal_runtime_base: where EAL makes the runtime directory of each
# --file-prefix (eal_create_runtime_dir: /var/run/dpdk for root).
eal_runtime_base() {
	if [ "$EUID" -eq 0 ]; then
		echo /var/run/dpdk
	else
		echo "${XDG_RUNTIME_DIR:-/tmp}/dpdk"
	fi
}

# eal_remove PREFIX...: remove what EAL processes run with --file-prefix
# PREFIX leave once they have ended, which EAL itself never removes: the
# runtime directory (config, fbarrays, sockets) and the hugepage files
# (PREFIXmap_*) in every hugetlbfs mount. That exact prefix only: other
# applications' files stay. (Builtins and rm only: valgrind traces this.)
eal_remove() {
	local p base mnt fs _
	base=$(eal_runtime_base)
	for p; do
		case $p in
		'' | . | .. | */* | *[*?[]*)
			log "eal_remove: not a file prefix: '$p'"
			continue ;;
		esac
		rm -rf -- "${base:?}/$p"
		while read -r _ mnt fs _; do
			[ "$fs" = hugetlbfs ] && rm -f -- "$mnt/${p}map_"*
		done </proc/mounts
	done
	return 0
}

# reserve_hugepages N: make sure at least N 2 MB hugepages are free and
# hugetlbfs is mounted at /dev/hugepages. Never lowers a reservation (other
# runs may be using it). Prints the mount point; fails with a message when
# the kernel cannot give N pages (memory fragmented, not root).
reserve_hugepages() {
	local want=$1 sys=/sys/kernel/mm/hugepages/hugepages-2048kB
	local mnt=/dev/hugepages total free
	[ -d "$sys" ] || { echo "reserve_hugepages: no 2 MB hugepage support ($sys missing)" >&2; return 1; }
	total=$(cat "$sys/nr_hugepages")
	free=$(cat "$sys/free_hugepages")
	if [ "$free" -lt "$want" ]; then
		echo $((total + want - free)) > "$sys/nr_hugepages" 2>/dev/null || true
		free=$(cat "$sys/free_hugepages")
		if [ "$free" -lt "$want" ]; then
			echo "reserve_hugepages: wanted $want free 2 MB hugepages, the kernel gave $free (nr_hugepages $(cat "$sys/nr_hugepages"))" >&2
			return 1
		fi
	fi
	if ! grep -qs " $mnt hugetlbfs " /proc/mounts; then
		mkdir -p "$mnt"
		mount -t hugetlbfs -o pagesize=2M nodev "$mnt" || {
			echo "reserve_hugepages: cannot mount hugetlbfs at $mnt" >&2
			return 1
		}
	fi
	echo "$mnt"
}

# in_private_mounts DIR... -- COMMAND...: run COMMAND in a private mount
# namespace where each DIR is an overlay (writes go to a temporary
# directory, gone afterwards): the same paths, invisible to every other
# process. Exit status 77 where a namespace or an overlay cannot be made.
in_private_mounts() {
	local dirs=() ovl rc=0
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		dirs+=("$1")
		shift
	done
	shift
	unshare --mount true 2>/dev/null ||
		{ log "SKIP: cannot create a mount namespace"; return 77; }
	ovl=$(mktemp -d "${TMPDIR:-/tmp}/tm-ovl.XXXXXX")
	# shellcheck disable=SC2016
	unshare --mount --propagation private bash -c '
		ovl=$1 n=$2
		shift 2
		for ((i = 0; i < n; i++)); do
			mkdir -p "$ovl/u$i" "$ovl/w$i"
			mount -t overlay overlay -o "lowerdir=$1,upperdir=$ovl/u$i,workdir=$ovl/w$i" "$1" ||
				{ echo "SKIP: cannot mount an overlay on $1" >&2; exit 77; }
			shift
		done
		exec "$@"' _ "$ovl" "${#dirs[@]}" "${dirs[@]}" "$@" || rc=$?
	rm -rf "$ovl"
	return $rc
}
