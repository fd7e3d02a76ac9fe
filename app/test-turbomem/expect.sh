# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Sourced by the negative tests of the checks (style-bad-input.sh,
# leftovers-bad-input.sh, series-bad-input.sh).

# expect RC WANT-RC PATTERN WHAT: "ok" with the line of $out that matches
# PATTERN when the exit status RC is WANT-RC and a line matches; else
# "FAIL" with the end of $out, and bad=1.
expect() {
	if [ "$1" != "$2" ] || ! printf '%s\n' "$out" | grep -q -- "$3"; then
		echo "FAIL: $4: exit $1 (expected $2), no line matching '$3':"
		printf '%s\n' "$out" | tail -15
		bad=1
	else
		echo "ok: $4: exit $1: $(printf '%s\n' "$out" | grep -- "$3" | head -1)"
	fi
}

# release_work TOP: TM_DPDK_TARBALL exported (DPDK 26.07's, as TOP's
# scripts/dpdk.sh finds it) and d, a work directory removed at exit;
# without a tarball, one FAIL line and exit 1.
release_work() {
	TM_DPDK_TARBALL=$(cd "$1" && bash -c '. scripts/dpdk.sh && dpdk_tarball 26.07') ||
		{ echo "FAIL: no DPDK 26.07 tarball for $1 (scripts/dpdk.sh dpdk_tarball)"; exit 1; }
	export TM_DPDK_TARBALL
	d=$(mktemp -d) || exit 1
	trap 'rm -rf "$d"' EXIT
}
