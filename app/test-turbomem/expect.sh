# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Sourced by the negative tests of the checks (style-bad-input.sh,
# leftovers-bad-input.sh).

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
