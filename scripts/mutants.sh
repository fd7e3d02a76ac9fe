#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Mutation check: every app/test-turbomem/mutants/*.patch is a deliberately
# broken driver; the test suite it names must fail on it. Exits 0 only if
# every mutant applies, builds and is killed.
#
# A mutant file is a unified diff against the repository root (applied
# with patch -p1), preceded by header lines that patch ignores:
#   Mutant: <one line: what is broken>
#   Suite:  <meson suite(s) to run, space-separated>
#   Meson:  <extra meson setup options>          (optional)
#   Expect: <test expected to kill it>           (optional; run first)
# A file with a Meson: line may carry no diff at all (a mutant selected by
# a build option).
#
# The tree (tracked and untracked, not ignored, files) is copied once into
# the work directory; each mutant is applied there with patch -F0 (no fuzz:
# a mutant whose context moved fails by name instead of landing elsewhere),
# and only what its Expect: test depends on is rebuilt (in one build
# directory per set of Meson options) and run; where that does not kill
# the mutant, the suite's targets are built and "meson test --suite S
# --maxfail 1" runs. Then the mutant is reverted. A patch that does not apply (or
# revert) is a failure, not a skip.
#
# Prints one table row per mutant: name, killed/SURVIVED/NO-APPLY/
# BUILD-FAILED/SKIPPED (every test of the suite skipped: the machine
# cannot run it), the test that failed first, seconds.
#
# Usage: scripts/mutants.sh [workdir]   (default: build-mutants)
# Environment: TM_MUTANTS="name ..." runs only those (file names without
# .patch); TM_MUTANTS_DIR another directory of patches.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# The one argument is a directory: an option (--help) would become one.
if [ $# -gt 1 ] || [[ ${1:-} == -* ]]; then
	echo "mutants.sh: '$*': takes one work directory, no option (usage: scripts/mutants.sh [workdir])" >&2
	exit 2
fi
work=${1:-$top/build-mutants}
mdir=${TM_MUTANTS_DIR:-$top/app/test-turbomem/mutants}
# shellcheck source=scripts/common.sh
. "$top/scripts/common.sh"
find_meson

mkdir -p "$work"
work=$(cd "$work" && pwd)
src=$work/src
logs=$work/logs
rm -rf "$src" "$logs"
mkdir -p "$src" "$logs"
# The tree as git sees it (tracked and untracked, not ignored); outside a
# git checkout, everything but build directories.
tree_files() {
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$top" ls-files -co --exclude-standard -z
	else
		(cd "$top" && find . -path './build*' -prune -o -type f -print0)
	fi
}
(cd "$top" && tree_files |
	xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	tar --null -T - -cf -) | tar -xf - -C "$src" ||
	{ echo "cannot copy the tree to $src"; exit 1; }

hdr() { # file field: value of the header line "field: value"
	sed -n "/^\(---\|diff \|+++\|@@\)/q; s/^$2: *//p" "$1" | head -1
}
has_diff() { grep -q '^@@' "$1"; }

files=()
if [ -n "${TM_MUTANTS:-}" ]; then
	for n in $TM_MUTANTS; do
		files+=("$mdir/$n.patch")
	done
else
	for f in "$mdir"/*.patch; do
		[ -e "$f" ] && files+=("$f")
	done
fi
[ ${#files[@]} -gt 0 ] || { echo "no mutants in $mdir"; exit 1; }

rows=()
bad=0
t_all=$SECONDS
for f in "${files[@]}"; do
	name=$(basename "$f" .patch)
	t0=$SECONDS
	result="" killer="-"
	if [ ! -f "$f" ]; then
		rows+=("$(printf '%-32s %-12s %-40s %5s' "$name" NO-FILE - 0)")
		bad=$((bad + 1))
		continue
	fi
	suite=$(hdr "$f" Suite)
	mopts=$(hdr "$f" Meson)
	expect=$(hdr "$f" Expect)
	what=$(hdr "$f" Mutant)
	echo "=== mutant $name: $what (suite: ${suite:-?}${mopts:+, meson: $mopts})"
	if [ -z "$suite" ] || [ -z "$what" ]; then
		result=BAD-HEADER
	elif has_diff "$f"; then
		# A dry run first: a patch whose later hunk fails would leave
		# the earlier ones applied, and the next mutants on them.
		if ! (cd "$src" && patch -p1 -F0 -s --dry-run -r - < "$f" &&
				patch -p1 -F0 -s --no-backup-if-mismatch -r - < "$f") \
				> "$logs/$name.patch.log" 2>&1; then
			cat "$logs/$name.patch.log"
			result=NO-APPLY
		fi
	elif [ -z "$mopts" ]; then
		result=NO-APPLY # neither a diff nor build options
	fi
	if [ -z "$result" ]; then
		key=$(path_tag "$mopts")
		dir=$work/build-$key
		read -r -a extra <<<"$mopts"
		if { [ -f "$dir/build.ninja" ] ||
				"$MESON" setup "$dir" "$src" -Dbuildtype=debugoptimized \
				"${extra[@]}"; } > "$logs/$name.setup.log" 2>&1 &&
				targets=$(test_targets "$dir" "$suite" "$expect") &&
				[ -n "$targets" ] &&
				"$NINJA" -C "$dir" $targets > "$logs/$name.build.log" 2>&1; then
			wrap=()
			case "$mopts" in
			*sanitize=thread*)
				w=$(tsan_wrapper)
				[ -n "$w" ] && wrap=(--wrapper "$w") ;;
			esac
			sargs=()
			for s in $suite; do
				sargs+=(--suite "$s")
			done
			rc=0
			: > "$logs/$name.test.log"
			if [ -n "$expect" ]; then
				TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
					"$MESON" test -C "$dir" --no-rebuild --print-errorlogs \
					"${wrap[@]}" "$expect" >> "$logs/$name.test.log" 2>&1 || rc=$?
			fi
			built=1
			if [ $rc -eq 0 ]; then
				# Not killed by its Expect: test: the whole suite, built.
				targets=$(test_targets "$dir" "$suite")
				"$NINJA" -C "$dir" $targets >> "$logs/$name.build.log" 2>&1 || built=0
			fi
			if [ $rc -eq 0 ] && [ $built -eq 1 ]; then
				TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
					"$MESON" test -C "$dir" --no-rebuild "${sargs[@]}" --maxfail 1 \
					--print-errorlogs "${wrap[@]}" >> "$logs/$name.test.log" 2>&1 || rc=$?
			fi
			if [ $built -eq 0 ]; then
				tail -20 "$logs/$name.build.log"
				result=BUILD-FAILED
			elif [ $rc -ne 0 ]; then
				result=killed
				killer=$(grep -m1 -E '^ *[0-9]+/[0-9]+ .* (FAIL|TIMEOUT|UNEXPECTEDPASS) ' \
					"$logs/$name.test.log" |
					sed 's/^ *[0-9]*\/[0-9]* //; s/^[^/]*\/ *//; s/ .*//')
				why=$(grep -m1 -E 'check ".*" failed|assertion ".*" failed|FAIL:|ThreadSanitizer: [a-z]|error:' \
					"$logs/$name.test.log" || true)
				echo "    killed by ${killer:-?}: ${why:-no message}"
				if [ -n "$expect" ] && [ "$killer" != "$expect" ]; then
					echo "    (expected $expect)"
				fi
			elif [ "$(grep -E '^Ok:' "$logs/$name.test.log" | tail -1 | tr -d ' ')" = Ok:0 ]; then
				# Every test of the suite skipped (no hugepages, say):
				# nothing was tried, which is no kill either.
				result=SKIPPED
				echo "    the suite skipped: $(grep -m1 'SKIP' "$logs/$name.test.log")"
			else
				result=SURVIVED
				echo "    survived: $logs/$name.test.log"
			fi
		else
			tail -20 "$logs/$name.setup.log" "$logs/$name.build.log" 2>/dev/null
			result=BUILD-FAILED
		fi
		if has_diff "$f" && ! (cd "$src" && patch -p1 -F0 -R -s \
				--no-backup-if-mismatch -r - < "$f") \
				>> "$logs/$name.patch.log" 2>&1; then
			echo "cannot revert $name: the scratch tree is dirty, stopping"
			rows+=("$(printf '%-32s %-12s %-40s %5s' "$name" "$result" "${killer:--}" $((SECONDS - t0)))")
			bad=$((bad + 1))
			break
		fi
	fi
	[ "$result" = killed ] || bad=$((bad + 1))
	rows+=("$(printf '%-32s %-12s %-40s %5s' "$name" "$result" "${killer:--}" $((SECONDS - t0)))")
done

echo
printf '%-32s %-12s %-40s %5s\n' mutant result "killing test" seconds
for r in "${rows[@]}"; do
	echo "$r"
done
# One line per mutant not killed, which the test runner's summary keeps.
for r in "${rows[@]}"; do
	read -r n res _ <<<"$r"
	[ "$res" = killed ] || echo "FAIL: mutant $n: $res (logs: $logs/$n.*.log)"
done
echo "mutants: ${#rows[@]} run, $bad not killed, $((SECONDS - t_all)) s"
[ $bad -eq 0 ]
