#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# The whole turbomem test run: install dependencies, build, run the test
# stages, print one summary line per stage, every skipped test with its
# reason and what failed (the failed tests; the matrix's table and the
# failed checks' logs). Exits non-zero if any stage fails; all selected
# stages run even after a failure.
#
# Stages (select with TM_TEST_STAGES, in the order given):
#   fast   build ./build, run "meson test --suite fast" (core harness and
#          the DPDK driver tests) under scripts/no-leftovers.sh: any entry
#          it leaves in /var/run/dpdk or a hugetlbfs mount fails the stage
#   tsan   ThreadSanitizer build of the DPDK-free core in ./build-tsan, run
#          "meson test --suite core"
#   ci     "meson test --suite ci" in ./build: mutation check (scripts/
#          mutants.sh, the patches of app/test-turbomem/mutants) and the
#          in-tree DPDK build with its testpmd
#          forwarding on turbomem (scripts/dpdk.sh intree)
#   perf   "meson test --suite perf" in ./build: the results page from
#          seconds-long runs of full's matrix and a slice of every other
#          turbomem_bench scenario, checking every row is produced (no
#          timing assertions; bench.sh results-short, ~4 min), the
#          evidence page likewise (bench.sh evidence-short; ~90 s), both
#          built with sphinx-build -W; the ratio gate (bench.sh gate)
#   stress "meson test --suite stress" in ./build at TM_TEST_SCALE=20:
#          stress shapes, ABA, multi-process with a killed secondary
#          (hugepages)
#   asan   AddressSanitizer + UBSan build of driver and app in ./build-asan,
#          fast and stress suites
#   debug  -Ddebug_checks=true build in ./build-debug, fast suite (death
#          tests of foreign and double puts run there)
#   valgrind  memcheck of the driver tests of the fast suite in ./build, at
#          TM_TEST_SCALE=0.01
#   style  DPDK's style rules on the repository (scripts/check-style.sh):
#          .rst lines of at most 100 columns, and 26.07's
#          devtools/check-git-log.sh over the commits since that check
#          was added; then that it fails where it must (style-bad-input.sh),
#          as no-leftovers.sh must (leftovers-bad-input.sh) and the patch
#          series' generator (series-bad-input.sh)
#   ovs    "meson test --suite ovs" in ./build: Open vSwitch with DPDK
#          (Debian's openvswitch-switch-dpdk, a private instance) on
#          turbomem: forwarding, real packets, reconfiguration under
#          traffic, held mbufs, bad input, hugepage-free OVS
#          (app/test-turbomem/ovs.py); skipped, with the reason, without
#          root, OVS or hugepages
#   matrix DPDK 22.11 (Debian's) and 26.07 (release tarball), each out of
#          tree and in tree: fast suite, DPDK's mempool_autotest and
#          mbuf_autotest on turbomem, testpmd forwarding checked through
#          telemetry, exports (nm -D), the public API from the installed
#          26.07 prefix, -Denable_stdatomic=true, 26.07's
#          forbidden-token rules over the driver, and the series cell: the
#          driver as a patch series on 26.07 with DPDK's own checks
#          (scripts/series.sh check); prints a table (scripts/dpdk.sh
#          matrix, DPDK builds cached in ~/.cache/turbomem); under
#          scripts/no-leftovers.sh
#   numa   NUMA placement on two nodes: one guest of two NUMA nodes booted
#          with virtme-ng (KVM or TCG) runs the placement checks on the
#          ./build plugin and on the mutants of app/test-turbomem/
#          numa-mutants (scripts/numa.sh); where no guest can be started,
#          one SKIP line with the reason, and the stage passes
#
# Environment:
#   TM_TEST_STAGES      stages to run (default "style tsan ci matrix perf
#                       stress asan debug valgrind ovs numa fast")
#   TM_BUILD_DIR        build directory of the fast stage (default build)
#   TM_TSAN_BUILD_DIR   build directory of the tsan stage (default build-tsan)
#   TM_ASAN_BUILD_DIR   build directory of the asan stage (default build-asan)
#   TM_DEBUG_BUILD_DIR  build directory of the debug stage (default build-debug)
#   TM_MESON_OPTS       extra "meson setup" options for every build
#   TM_TEST_OPTS        extra "meson test" options for every stage
#   TM_SKIP_OK=1        a skipped test never fails its stage (by default it
#                       does where the machine can run it: root, THP
#                       madvise/always, 2 MB hugepages; SKIP(build) skips,
#                       a feature of another build, never fail)
#   TM_DEPS_SKIP=1      do not run scripts/deps.sh
#   MESON, NINJA        the meson/ninja to use (default: the distribution's,
#                       /usr/bin/meson and /usr/bin/ninja when present, so a
#                       pyenv or pip meson earlier on PATH is not picked up)
#
# Adding a stage: write a function stage_<name> that returns non-zero on
# failure, and add <name> to known_stages.

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

known_stages="style fast tsan ci perf stress asan debug valgrind matrix ovs numa"
TM_TEST_STAGES=${TM_TEST_STAGES:-style tsan ci matrix perf stress asan debug valgrind ovs numa fast}
TM_BUILD_DIR=${TM_BUILD_DIR:-build}
TM_TSAN_BUILD_DIR=${TM_TSAN_BUILD_DIR:-build-tsan}
TM_ASAN_BUILD_DIR=${TM_ASAN_BUILD_DIR:-build-asan}
TM_DEBUG_BUILD_DIR=${TM_DEBUG_BUILD_DIR:-build-debug}

tm_name=test.sh
# shellcheck source=scripts/common.sh
. scripts/common.sh

# --- building and running ------------------------------------------------

# meson_test DIR LOGNAME [meson test options...]
# Run meson test with its output visible, and keep its summary (the
# "Ok: / Fail: ..." lines) for the final report.
meson_test() {
	local dir=$1 name=$2
	shift 2
	local out="$dir/meson-logs/test-sh-$name.txt" rc=0
	last_test_log=$out
	# shellcheck disable=SC2086
	"${meson_runner[@]}" "$MESON" test -C "$dir" --print-errorlogs --logbase "testlog-sh-$name" \
		"$@" ${TM_TEST_OPTS:-} 2>&1 |
		tee "$out" || rc=$?
	local c
	c=$(sed -n 's/^\(Ok\|Expected Fail\|Fail\|Unexpected Pass\|Skipped\|Timeout\): *\([0-9]*\).*/\1 \2/p' "$out" |
		grep -v '[^k] 0$' | paste -sd, - | sed 's/,/, /g' || true)
	# Stages with several runs: one group of counts per run.
	counts=${counts:+$counts; }$c
	skips_of "$dir" "$name" || rc=1
	if [ $rc -ne 0 ]; then
		# The failed tests' lines ("N/M suite / name FAIL ..."), and the
		# first "FAIL: ..." lines their logs printed (a tool's name may
		# come first), for the summary: a CI that keeps only the end of
		# the output still says which test failed, and why.
		details+=("$name:"$'\n'"$({ grep -E ' (FAIL|TIMEOUT|UNEXPECTEDPASS|ERROR) ' "$out" |
			sed 's/^ *//; s/  */ /g' | awk '!seen[$0]++' | head -10
			grep -E '(^|: )FAIL: ' "$out" | awk '!seen[$0]++' | head -10; } | sed 's/^/    /')")
	fi
	return $rc
}

# Can every test run here? Root, THP madvise/always (and not disabled for
# this process), 2 MB hugepages the kernel supports. TM_SKIP_OK=1 lets
# skips pass anyway.
machine_complete() {
	[ "${TM_SKIP_OK:-0}" != 1 ] || return 1
	[ "$(id -u)" -eq 0 ] || return 1
	grep -qs '\[\(always\|madvise\)\]' /sys/kernel/mm/transparent_hugepage/enabled ||
		return 1
	[ -d /sys/kernel/mm/hugepages/hugepages-2048kB ] || return 1
	python3 -c 'import ctypes,sys; sys.exit(ctypes.CDLL(None).prctl(42,0,0,0,0) != 0)' 2>/dev/null
}

# skips_of DIR LOGNAME: list the skipped tests of the run just made, with
# the reason each printed ("SKIP: ..." for a missing machine capability,
# "SKIP(build): ..." for a feature of another build); fails on a machine
# where every test can run and a test skipped for the machine.
skips_of() {
	local dir=$1 name=$2 complete=0 line json
	# meson appends the wrapper's name to the log base, if any.
	json=$(ls -t "$dir"/meson-logs/testlog-sh-"$name"*.json 2>/dev/null | head -1)
	machine_complete && complete=1
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		case "$line" in
		*$'\t'"SKIP(build)"*) skipped+=("$name: ${line/$'\t'/: }") ;;
		*)
			if [ $complete -eq 1 ]; then
				skipped+=("$name: ${line/$'\t'/: } [FAIL: this machine can run it]")
				skip_fail=1
			else
				skipped+=("$name: ${line/$'\t'/: }")
			fi ;;
		esac
	done < <(python3 - "${json:-/nonexistent}" <<'PY'
import json, sys
try:
    lines = open(sys.argv[1]).read().splitlines()
except OSError:
    sys.exit(0)
for l in lines:
    try:
        t = json.loads(l)
    except ValueError:
        continue
    if t.get("result") != "SKIP":
        continue
    out = (t.get("stdout") or "") + (t.get("stderr") or "")
    why = [x.strip() for x in out.splitlines() if "SKIP" in x]
    print("%s\t%s" % (t["name"], why[-1] if why else "SKIP: (no reason printed)"))
PY
)
	[ "${skip_fail:-0}" -eq 0 ]
}

# --- stages --------------------------------------------------------------

stage_style() {
	local out=build-style/style.txt rc=0
	mkdir -p build-style
	bash scripts/check-style.sh 2>&1 | tee "$out" || rc=$?
	# ... and that it fails where it must (meson's suite "style"), as the
	# fast stage's check of EAL leftovers must.
	sh app/test-turbomem/style-bad-input.sh "$(pwd)" 2>&1 | tee -a "$out" || rc=$?
	sh app/test-turbomem/leftovers-bad-input.sh "$(pwd)" 2>&1 | tee -a "$out" || rc=$?
	sh app/test-turbomem/series-bad-input.sh "$(pwd)" 2>&1 | tee -a "$out" || rc=$?
	[ $rc -eq 0 ] || details+=("style:"$'\n'"$(grep -v '^log: \|^doc: [0-9]' "$out" | head -20 | sed 's/^/    /')")
	return $rc
}

# The suite must leave nothing of EAL behind (scripts/no-leftovers.sh):
# every entry it adds to /var/run/dpdk or a hugetlbfs mount fails it.
stage_fast() {
	meson_configure "$TM_BUILD_DIR" || return
	"$NINJA" -C "$TM_BUILD_DIR" || return
	local meson_runner=(bash scripts/no-leftovers.sh)
	meson_test "$TM_BUILD_DIR" fast --suite fast
}

stage_ci() {
	meson_configure "$TM_BUILD_DIR" || return
	"$NINJA" -C "$TM_BUILD_DIR" || return
	meson_test "$TM_BUILD_DIR" ci --suite ci
}

stage_perf() {
	meson_configure "$TM_BUILD_DIR" || return
	"$NINJA" -C "$TM_BUILD_DIR" || return
	meson_test "$TM_BUILD_DIR" perf --suite perf
}

# Only the plugin is built: the suite needs nothing else.
stage_ovs() {
	meson_configure "$TM_BUILD_DIR" || return
	# shellcheck disable=SC2046
	"$NINJA" -C "$TM_BUILD_DIR" $(test_targets "$TM_BUILD_DIR" ovs) || return
	meson_test "$TM_BUILD_DIR" ovs --suite ovs
}

stage_tsan() {
	meson_configure "$TM_TSAN_BUILD_DIR" \
		-Db_sanitize=thread -Dbuildtype=debugoptimized || return
	# Only the core harness runs here: the driver and app are not built.
	# shellcheck disable=SC2046
	"$NINJA" -C "$TM_TSAN_BUILD_DIR" $(test_targets "$TM_TSAN_BUILD_DIR" core) || return
	local wrap=() w
	w=$(tsan_wrapper)
	if [ -n "$w" ]; then
		log "vm.mmap_rnd_bits > 28: running TSan tests under $w"
		wrap=(--wrapper "$w")
	fi
	TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1} \
		meson_test "$TM_TSAN_BUILD_DIR" tsan --no-rebuild --suite core "${wrap[@]}"
}

stage_stress() {
	meson_configure "$TM_BUILD_DIR" || return
	"$NINJA" -C "$TM_BUILD_DIR" || return
	# Scaled up here (about 10 s on 2 CPUs); the asan stage and the
	# mutants run the suite at scale 1.
	TM_TEST_SCALE=${TM_TEST_SCALE:-20} \
		meson_test "$TM_BUILD_DIR" stress --suite stress
}

# ASan + UBSan on driver and app. detect_leaks=0: LeakSanitizer's tracer
# crashes (SIGSEGV) scanning EAL's memory and threads at exit; pool leaks
# are checked by the tests themselves (memzones, heap bytes, mappings).
# Debian's dpdk-test is not instrumented: the ASan runtime is preloaded
# for those tests only.
stage_asan() {
	meson_configure "$TM_ASAN_BUILD_DIR" -Db_sanitize=address,undefined \
		-Db_lundef=false -Dbuildtype=debugoptimized || return
	"$NINJA" -C "$TM_ASAN_BUILD_DIR" || return
	local pre
	pre="$(cc -print-file-name=libasan.so):$(cc -print-file-name=libubsan.so)"
	export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}
	export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
	# Debian's dpdk-test and dpdk-testpmd are not instrumented: the ASan
	# runtime must be preloaded for them to load the instrumented plugin.
	# The multi-process test runs in the stress stage only: under ASan a
	# secondary sometimes exits at start-up (rc 1, nothing logged; one of
	# three in a CI run), most likely its mappings colliding with ASan's
	# shadow memory where the primary's hugepages must go. Not
	# investigated further.
	meson_test "$TM_ASAN_BUILD_DIR" asan --suite fast --suite stress \
		--no-suite dpdk --no-suite telemetry --no-suite testpmd \
		--no-suite mp || return
	meson_test "$TM_ASAN_BUILD_DIR" asan-dpdk --suite dpdk \
		--suite telemetry --suite testpmd --wrapper "env LD_PRELOAD=$pre"
}

stage_debug() {
	meson_configure "$TM_DEBUG_BUILD_DIR" -Ddebug_checks=true \
		-Dbuildtype=debugoptimized || return
	"$NINJA" -C "$TM_DEBUG_BUILD_DIR" || return
	meson_test "$TM_DEBUG_BUILD_DIR" debug --suite fast
}

# memcheck of the driver tests (valgrind follows with-plugin.sh into the
# test binary). The core harness is left to the sanitizers, and
# DPDK's mbuf_autotest (its own library, ~5 min under valgrind) to the
# other stages.
stage_valgrind() {
	meson_configure "$TM_BUILD_DIR" || return
	"$NINJA" -C "$TM_BUILD_DIR" || return
	local skip='*/find,*/dirname,*/sha256sum,*/cut,*/cksum,*/realpath,*/mkdir,*/chmod,*/cp,*/rm'
	# --fair-sched=yes: valgrind runs one thread at a time, and its
	# default lock lets two spinning threads starve a third for seconds
	# (turbomem_stats_autotest's "gets failed for 10 s in a row").
	local vg="valgrind -q --fair-sched=yes --error-exitcode=99 --leak-check=no --trace-children=yes --trace-children-skip=$skip"
	TM_TEST_SCALE=0.01 meson_test "$TM_BUILD_DIR" valgrind \
		--suite driver --no-suite stress --wrapper "$vg" -t 5 || return
	TM_TEST_SCALE=0.01 meson_test "$TM_BUILD_DIR" valgrind-dpdk \
		dpdk_mempool_autotest --wrapper "$vg" -t 5
}

# DPDK versions x builds x checks (scripts/dpdk.sh prints the table). On
# a failure the summary repeats the table and the end of each failed
# check's log.
stage_matrix() {
	local out=build-matrix/matrix.txt rc=0 lg
	mkdir -p build-matrix
	# The fast stage runs the fast suite against the system's DPDK: the
	# matrix does not run it again on its out-of-tree build of that DPDK.
	case " $TM_TEST_STAGES " in
	*" fast "*) export TM_MATRIX_FAST_SYSTEM="the fast stage" ;;
	esac
	# Under no-leftovers.sh, as the fast stage: the cells run DPDK's
	# own tests and testpmd, which leave their runtime directories.
	MESON=$MESON NINJA=$NINJA bash scripts/no-leftovers.sh bash scripts/dpdk.sh matrix build-matrix 2>&1 |
		tee "$out" || rc=$?
	[ $rc -ne 0 ] || return 0
	details+=("matrix: $(sed -n '/^turbomem DPDK matrix/,/^failed:/p' "$out")")
	for lg in $(sed -n 's/.*: FAIL in [0-9]* s (\(.*\))$/\1/p' "$out"); do
		details+=("matrix: $lg, its lines naming a failure, then its end:"$'\n'"$(
			{ grep -E 'FAIL|TIMEOUT|[Ee]rror' "$lg" | awk '!seen[$0]++' | head -10
			  echo ...; tail -12 "$lg"; } | sed 's/^/    /')")
	done
	return $rc
}

# Two NUMA nodes in a guest (scripts/numa.sh). A guest that cannot be
# started is a skip, listed with its reason, not a failure.
stage_numa() {
	local out=build-numa.txt rc=0
	meson_configure "$TM_BUILD_DIR" || return
	"$NINJA" -C "$TM_BUILD_DIR" librte_mempool_turbomem.so \
		app/test-turbomem/dpdk-test-turbomem || return
	MESON=$MESON NINJA=$NINJA bash scripts/numa.sh "$TM_BUILD_DIR" 2>&1 |
		tee "$TM_BUILD_DIR/$out" || rc=$?
	counts=$(tail -1 "$TM_BUILD_DIR/$out" | grep -E '^[0-9]+ passed' || true)
	if [ $rc -eq 77 ]; then
		skipped+=("numa: $(grep -m1 'SKIP: ' "$TM_BUILD_DIR/$out" | sed 's/.*SKIP: /SKIP: /')")
		return 0
	fi
	[ $rc -eq 0 ] || details+=("numa:"$'\n'"$(grep -E ' (FAIL|SKIP) |FAIL:|failed' "$TM_BUILD_DIR/$out" | head -20 | sed 's/^/    /')")
	return $rc
}

# --- main ----------------------------------------------------------------

for s in $TM_TEST_STAGES; do
	case " $known_stages " in
	*" $s "*) ;;
	*) die "unknown stage '$s' in TM_TEST_STAGES (known: $known_stages)" ;;
	esac
done

if [ "${TM_DEPS_SKIP:-0}" != 1 ]; then
	# The numa stage's guest (QEMU, a kernel, virtme-ng) only when it runs.
	case " $TM_TEST_STAGES " in
	*" numa "*) bash scripts/deps.sh numa ;;
	*) bash scripts/deps.sh ;;
	esac
fi

find_meson
log "meson: $MESON ($("$MESON" --version)), ninja: $NINJA ($("$NINJA" --version))"

# The stages reserve 2 MB hugepages (reserve_hugepages never lowers a
# reservation): at the end, and on any exit, nr_hugepages goes back to
# what it was before the run (the kernel keeps pages still in use).
hp2m_sys=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
hp2m_before=$(cat "$hp2m_sys" 2>/dev/null || echo -)
hp2m_restore() {
	local cur
	[ "$hp2m_before" != - ] && [ -w "$hp2m_sys" ] || return 0
	cur=$(cat "$hp2m_sys")
	[ "$cur" -gt "$hp2m_before" ] || return 0
	echo "$hp2m_before" > "$hp2m_sys" 2>/dev/null || true
	log "2 MB hugepages: nr_hugepages $cur -> $(cat "$hp2m_sys"), as before the run"
}
trap hp2m_restore EXIT

# A command that meson test runs under (stage_fast sets it).
meson_runner=()
summary=()
skipped=()
details=()
failed=0
t_all=$SECONDS
for s in $TM_TEST_STAGES; do
	log "=== stage $s ==="
	counts=""
	skip_fail=0
	t0=$SECONDS
	rc=0
	"stage_$s" || rc=$?
	dt=$((SECONDS - t0))
	if [ $rc -eq 0 ]; then
		result=PASS
	else
		result="FAIL (rc $rc)"
		failed=$((failed + 1))
	fi
	summary+=("$(printf '%-6s %-12s %5ss%s' "$s" "$result" "$dt" "${counts:+  [$counts]}")")
	log "=== stage $s: $result in ${dt}s ==="
done
hp2m_restore

echo
echo "turbomem test summary (stages: $TM_TEST_STAGES)"
for line in "${summary[@]}"; do
	echo "  $line"
done
echo "  total: $((SECONDS - t_all))s, $failed stage(s) failed"
echo "skipped tests: ${#skipped[@]}"
for line in "${skipped[@]}"; do
	echo "  $line"
done
if [ ${#details[@]} -gt 0 ]; then
	echo "what failed:"
	for line in "${details[@]}"; do
		printf '%s\n' "$line" | sed 's/^/  /'
	done
fi
# End with the runner's own summary of the last stage.
if [ -n "${last_test_log:-}" ] && [ -f "$last_test_log" ]; then
	echo
	echo "meson test summary of the last stage ($last_test_log):"
	sed -n '/^Ok: /,/^Timeout: /p' "$last_test_log"
fi
[ $failed -eq 0 ]
