#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# NUMA placement on two nodes (test.sh's numa stage). Every machine here
# has one NUMA node, so one guest of two (node 0: CPU 0, node 1: CPU 1,
# 2 GB each) is booted with virtme-ng on the host's root file system,
# and app/test-turbomem/numa-guest.sh runs the checks there: the build's
# plugin must pass them, each app/test-turbomem/numa-mutants/*.patch
# must fail its run. Everything is built here first (the mutant plugins
# in BUILD-DIR/numa), so that the guest only runs; one boot in all.
#
# KVM where the CPU shows vmx or svm and /dev/kvm opens, else TCG
# (QEMU's emulator: these machines have a /dev/kvm but no virtualisation
# flag, and QEMU with KVM aborts there); a failed KVM start is retried
# under TCG.
#
# Usage: scripts/numa.sh [BUILD-DIR]   (default: build, already built)
# Exit status: 0 every check passed; 1 a check failed; 77 the guest could
# not be started (one "SKIP: <reason>" line says why).
# Environment:
#   TM_NUMA_KERNEL   the guest's kernel (default: the newest /boot/vmlinuz-*)
#   TM_NUMA_MUTANTS  mutant names to run (default: all; "none": none)
#   TM_NUMA_ACCEL    kvm, tcg or auto (default)
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tm_name=numa.sh
# shellcheck source=scripts/common.sh
. "$top/scripts/common.sh"
find_meson

build=$(cd "${1:-$top/build}" && pwd) || die "no build directory ${1:-build}"
bin=$build/app/test-turbomem/dpdk-test-turbomem
plugin=$build/librte_mempool_turbomem.so
[ -x "$bin" ] && [ -f "$plugin" ] || die "$build is not built (ninja -C $build)"

skip() { log "SKIP: $*"; exit 77; }

vng=$(command -v vng) || skip "virtme-ng (vng) not installed (scripts/deps.sh numa)"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed (scripts/deps.sh numa)"
kernel=${TM_NUMA_KERNEL:-$(ls -v /boot/vmlinuz-* 2>/dev/null | tail -1)}
[ -r "$kernel" ] || skip "no readable kernel in /boot (linux-image-amd64; or set TM_NUMA_KERNEL)"

# EAL refuses plugins below a world-writable directory: the plugins go to
# a private one then.
work=$build/numa
insecure_dir "$build" && work=${HOME:-/root}/.cache/turbomem-numa/$(path_tag "$build")
mkdir -p "$work"
out=$work/out
rm -rf "$out" "$work/plugins"
mkdir -p "$out" "$work/plugins/real" "$work/plugins/mutants"
cp "$plugin" "$work/plugins/real/"

# --- mutant plugins, built here ------------------------------------------
mdir=$top/app/test-turbomem/numa-mutants
names=()
if [ "${TM_NUMA_MUTANTS:-}" = none ]; then
	:
elif [ -n "${TM_NUMA_MUTANTS:-}" ]; then
	read -r -a names <<<"$TM_NUMA_MUTANTS"
else
	for f in "$mdir"/*.patch; do
		[ -e "$f" ] && names+=("$(basename "$f" .patch)")
	done
fi
if [ ${#names[@]} -gt 0 ]; then
	src=$work/src mb=$work/build-mutants
	mkdir -p "$src"
	# The tree as git sees it; tar keeps the times, so that only what
	# changed since the last run is rebuilt.
	(cd "$top" && git ls-files -co --exclude-standard -z |
		xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -xf - -C "$src" || die "cannot copy the tree to $src"
	if [ ! -f "$mb/build.ninja" ]; then
		"$MESON" setup "$mb" "$src" > "$work/mutants-setup.log" 2>&1 ||
			{ tail -20 "$work/mutants-setup.log"; die "meson setup of the mutant build failed"; }
	fi
	for n in "${names[@]}"; do
		f=$mdir/$n.patch
		[ -f "$f" ] || die "no mutant $f"
		run=$(sed -n 's/^Run: *//p' "$f" | head -1)
		case "$run" in
		hugetlbfs|nohuge) ;;
		*) die "$f: Run: must be hugetlbfs or nohuge" ;;
		esac
		(cd "$src" && patch -p1 -F0 -s --no-backup-if-mismatch -r - < "$f") ||
			die "mutant $n does not apply"
		ok=1
		"$NINJA" -C "$mb" librte_mempool_turbomem.so > "$work/mutant-$n.build.log" 2>&1 || ok=0
		(cd "$src" && patch -p1 -F0 -R -s --no-backup-if-mismatch -r - < "$f") ||
			die "mutant $n does not revert"
		[ $ok = 1 ] || { tail -20 "$work/mutant-$n.build.log"; die "mutant $n does not build"; }
		mkdir -p "$work/plugins/mutants/$n"
		cp "$mb/librte_mempool_turbomem.so" "$work/plugins/mutants/$n/"
		echo "$run" > "$work/plugins/mutants/$n/run"
	done
	# The unpatched plugin again, for the next run's incremental build.
	"$NINJA" -C "$mb" librte_mempool_turbomem.so > /dev/null 2>&1
	log "built ${#names[@]} mutant plugin(s): ${names[*]}"
fi

# --- one boot --------------------------------------------------------------
boot() { # boot kvm|tcg: run the guest; 0 if it started
	local accel=() args
	[ "$1" = tcg ] && accel=(--disable-kvm)
	args="$top/app/test-turbomem/numa-guest.sh $out $bin $work/plugins/real/librte_mempool_turbomem.so"
	[ ${#names[@]} -gt 0 ] && args+=" $work/plugins/mutants"
	rm -f "$out/started"
	log "booting $(basename "$kernel") with two NUMA nodes ($1)"
	# No standard input: vng would otherwise wait on a terminal.
	timeout 560 "$vng" --run "$kernel" "${accel[@]}" --cpus 2 -m 4G \
		--numa 2G,cpus=0 --numa 2G,cpus=1 --rwdir "$out" \
		--exec "$args" < /dev/null > "$work/vng-$1.log" 2>&1
	log "guest exited (status $?)"
	[ -f "$out/started" ]
}

accel=${TM_NUMA_ACCEL:-auto}
if [ "$accel" = auto ]; then
	accel=tcg
	grep -qwE 'vmx|svm' /proc/cpuinfo && [ -w /dev/kvm ] && accel=kvm
fi
if ! boot "$accel"; then
	if [ "$accel" = kvm ] && boot tcg; then
		log "KVM did not start the guest; ran under TCG"
	else
		tail -5 "$work"/vng-*.log >&2
		skip "the two-node guest did not start ($(tail -1 "$work"/vng-tcg.log 2>/dev/null || tail -1 "$work"/vng-kvm.log))"
	fi
fi

# --- what the guest found ----------------------------------------------------
head -1 "$out/started"
fails=0 total=0
while read -r name res why; do
	total=$((total + 1))
	printf '  %-36s %-5s %s\n' "$name" "$res" "$why"
	[ "$res" = PASS ] || fails=$((fails + 1))
done < "$out/results"
grep -q '^done' "$out/started" || { log "FAIL: the guest did not finish (log: $work/vng-*.log)"; fails=$((fails + 1)); }
for f in "$out"/*.log; do
	grep -q 'XFAIL' "$f" && log "$(basename "$f" .log): $(grep -m1 XFAIL "$f" | sed 's/^ *//')"
done
# Every check that failed, with its log's lines that say why.
while read -r name res _; do
	[ "$res" = PASS ] && continue
	log "$name failed; $out/$name.log:"
	grep -E 'FAIL|failed|pool |node|report|telemetry' "$out/$name.log" 2>/dev/null | head -20 >&2
done < "$out/results"
echo "$((total - fails)) passed, $fails failed"
[ $fails -eq 0 ] && [ $total -gt 0 ]
