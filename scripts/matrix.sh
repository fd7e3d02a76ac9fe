#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# matrix.sh [WORKDIR]            (default: build-matrix)
# matrix.sh forbidden [WORKDIR]  (only the forbidden-token check)
#
# turbomem on two DPDK releases, each built two ways, with a table of
# version x build x check at the end:
#   22.11  Debian's DPDK (dpkg): out of tree, the -d plugin built by the
#          top-level meson.build against the installed libdpdk;
#          in tree, Debian's source of it (apt-get source) built with
#          turbomem under drivers/mempool/ (scripts/dpdk-source.sh).
#   26.07  the release tarball (TM_DPDK_TARBALL, ../shared/dpdk/, or
#          fast.dpdk.org), built with turbomem in tree and installed into a
#          private prefix (dpdk_build, cached by checksum); out of tree, the
#          plugin built against that prefix with PKG_CONFIG_PATH.
# Checks (a "-" in the table: does not apply):
#   fast      out of tree: "meson test --suite fast" of a build configured
#             against that DPDK (its dpdk-test, dpdk-testpmd)
#   mempool   DPDK's mempool_autotest on turbomem (DPDK_TEST=...
#             dpdk-test --mbuf-pool-ops-name=turbomem -d PLUGIN)
#   mbuf      DPDK's mbuf_autotest, the same way
#   testpmd   that DPDK's dpdk-testpmd forwarding on turbomem, checked
#             through telemetry: /turbomem/list, /turbomem/info count and
#             memory fields, packets forwarded (scripts/testpmd.py)
#   exports   nm -D of the library lists every rte_pmd_turbomem_* marked
#             RTE_EXPORT_* in the sources, and nothing else of turbomem;
#             out of tree, version.map lists the same names
#   api       in tree, 26.07: a program built against the installed prefix
#             (pkg-config libdpdk, rte_pmd_turbomem.h) calls the public API
#   stdatomic 26.07 in tree: the driver compiles without a warning with
#             -Denable_stdatomic=true too (the main build is =false)
#   forbidden DPDK 26.07's devtools/check-forbidden-tokens.awk rules, run
#             exactly as its checkpatches.sh (check_forbidden_additions)
#             runs them, over a patch adding drivers/mempool/turbomem to
#             that tree
#
# Environment: TM_MATRIX_VERSIONS (default "22.11 26.07"), TM_DPDK_TARBALL,
# TM_CACHE_DIR, MESON, NINJA.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/dpdk-source.sh
. "$top/scripts/dpdk-source.sh"
# shellcheck source=scripts/common.sh
. "$top/scripts/common.sh"

mode=all
if [ "${1:-}" = forbidden ]; then
	mode=forbidden
	shift
fi
work=$(realpath -m "${1:-$top/build-matrix}")
versions=${TM_MATRIX_VERSIONS:-22.11 26.07}
MESON=${MESON:-$(pick_tool meson /usr/bin/meson)}
NINJA=${NINJA:-$(pick_tool ninja /usr/bin/ninja)}
mkdir -p "$work/logs"

log() { printf '[matrix] %s\n' "$*" >&2; }

# Results are files ($work/result/VERSION.BUILD.CHECK), so that checks may
# run in subshells with their own environment.
rm -rf "$work/result"
mkdir -p "$work/result"
rows=()
checks=(fast mempool mbuf testpmd exports api stdatomic forbidden)

# check VERSION BUILD CHECK COMMAND...: run COMMAND with its output in
# $work/logs/VERSION-BUILD-CHECK.log; record PASS, FAIL or SKIP (77).
check() {
	local v=$1 b=$2 c=$3 lg rc=0 t0=$SECONDS
	shift 3
	lg=$work/logs/$v-$b-$c.log
	"$@" > "$lg" 2>&1 || rc=$?
	case $rc in
	0) set_result "$v" "$b" "$c" PASS ;;
	77) set_result "$v" "$b" "$c" SKIP ;;
	*) set_result "$v" "$b" "$c" FAIL ;;
	esac
	log "$v $b $c: $(get_result "$v" "$b" "$c") in $((SECONDS - t0)) s ($lg)"
	if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then
		tail -25 "$lg" | sed 's/^/    /' >&2
	fi
	return 0
}

set_result() { echo "$4" > "$work/result/$1.$2.$3"; }
get_result() { cat "$work/result/$1.$2.$3" 2>/dev/null || echo -; }

add_row() {
	case " ${rows[*]} " in *" $1|$2 "*) ;; *) rows+=("$1|$2") ;; esac
}

fail_row() { # VERSION BUILD WHY: every check of the row failed
	local c
	add_row "$1" "$2"
	log "$1 $2: $3"
	for c in fast mempool mbuf testpmd exports; do
		set_result "$1" "$2" "$c" FAIL
	done
}

# --- checks ----------------------------------------------------------------

# eal_prefix NAME: a --file-prefix unique to this tree and run.
eal_prefix() {
	echo "tm-mx-$1-$(printf '%s' "$top" | cksum | cut -d' ' -f1)-$$"
}

# autotest DPDK_TEST PLUGIN TEST: DPDK's autotest on turbomem.
autotest() {
	local dpdk_test=$1 plugin=$2 name=$3 out rc=0
	out=$("$top/scripts/with-plugin.sh" "$plugin" env DPDK_TEST="$name" \
		"$dpdk_test" --no-huge -m 512 --no-pci -l 0-1 -d @PLUGIN@ \
		--file-prefix="$(eal_prefix "$name")" --log-level='*turbomem:info' \
		--mbuf-pool-ops-name=turbomem 2>&1) || rc=$?
	printf '%s\n' "$out"
	# (Here-strings: grep -q in a pipe with pipefail fails on SIGPIPE.)
	[ $rc -eq 0 ] && grep -q 'Test OK' <<<"$out" || return 1
	# Pools were made on turbomem: its populate logs each one at INFO.
	echo "turbomem pools: $(grep -c 'turbomem: pool ' <<<"$out")"
	grep -q 'turbomem: pool ' <<<"$out"
}

# testpmd_check TESTPMD PLUGIN: forwarding on turbomem, through telemetry.
testpmd_check() {
	python3 "$top/scripts/testpmd.py" --testpmd "$1" --plugin "$2" \
		--prefix "$(eal_prefix testpmd)" --check list --check info \
		--seconds 2 -- -- --mbcache=0 --total-num-mbufs=8192
}

# exported_api: the rte_pmd_turbomem_* names marked RTE_EXPORT_* at the
# start of a line of the driver's sources, sorted.
exported_api() {
	sed -n 's/^RTE_EXPORT_[A-Z_]*SYMBOL(\(rte_pmd_turbomem_[a-z0-9_]*\).*/\1/p' \
		"$top"/drivers/mempool/turbomem/*.c | sort
}

# exports_check LIB [intree]: nm -D lists exactly the marked API.
exports_check() {
	local lib=$1 want got map
	want=$(exported_api)
	[ -n "$want" ] || { echo "no RTE_EXPORT_* marker in the sources"; return 1; }
	echo "marked in the sources: $(echo $want)"
	echo "nm -D --defined-only $lib:"
	nm -D --defined-only "$lib" | grep -E ' (rte_pmd_turbomem|tm_|turbomem)' | sed 's/^/  /'
	got=$(nm -D --defined-only "$lib" | awk '{ print $3 }' | sed 's/@.*//' |
		grep -E '^(rte_pmd_turbomem|tm_|turbomem)' | sort)
	[ "$got" = "$want" ] || { echo "FAIL: exported turbomem symbols differ from the markers"; return 1; }
	if [ "${2:-}" != intree ]; then
		map=$(sed -n 's/^[[:space:]]*\(rte_pmd_turbomem_[a-z0-9_]*\);.*/\1/p' \
			"$top/drivers/mempool/turbomem/version.map" | sort)
		[ "$map" = "$want" ] || { echo "FAIL: version.map lists: $(echo $map)"; return 1; }
		echo "version.map lists the same names"
	fi
	echo "OK"
}

# api_check PREFIX PLUGIN: a program built against the installed prefix
# calls every function of rte_pmd_turbomem.h.
api_check() {
	local prefix=$1 plugin=$2 lib d out
	lib=$(dpdk_libdir "$prefix")
	d=$work/api
	mkdir -p "$d"
	cat > "$d/api.c" <<'C'
/* Built against an installed DPDK prefix: rte_pmd_turbomem.h, linked to
 * DPDK's build of the driver. */
#include <inttypes.h>
#include <stdio.h>

#include <rte_eal.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_pmd_turbomem.h>

int
main(int argc, char **argv)
{
	struct rte_pmd_turbomem_stats st;
	struct rte_pmd_turbomem_mem_info mi;
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	int ret = 0;

	if (rte_eal_init(argc, argv) < 0)
		return 1;
	mp = rte_pktmbuf_pool_create_by_ops("api", 511, 0, 0, 2048,
			SOCKET_ID_ANY, RTE_PMD_TURBOMEM_OPS_NAME);
	if (mp == NULL)
		return 2;
	m = rte_pktmbuf_alloc(mp);
	rte_pktmbuf_free(m);
	if (rte_pmd_turbomem_stats_get(mp, &st) != 0 || st.get_calls != 1 ||
			st.put_calls != 1)
		ret = 3;
	printf("api: pool on %s: get_calls %" PRIu64 " put_calls %" PRIu64 "\n",
		rte_mempool_get_ops(mp->ops_index)->name, st.get_calls,
		st.put_calls);
	if (rte_pmd_turbomem_stats_reset(mp) != 0 ||
			rte_pmd_turbomem_stats_get(mp, &st) != 0 ||
			st.get_calls != 0)
		ret = 4;
	if (rte_pmd_turbomem_mem_info(mp, &mi) != 0)
		ret = 5;
	else
		printf("api: memory %" PRIu64 " bytes, backing %s\n",
			(uint64_t)mi.bytes, rte_pmd_turbomem_backing_name(mi.backing));
	rte_mempool_free(mp);
	rte_eal_cleanup();
	printf("api: %s\n", ret == 0 ? "OK" : "FAIL");
	return ret;
}
C
	(
	export PKG_CONFIG_PATH=$lib/pkgconfig
	set -x
	# shellcheck disable=SC2046
	cc -Wall -Werror -DALLOW_EXPERIMENTAL_API -o "$d/api" "$d/api.c" \
		$(pkg-config --cflags --libs libdpdk) \
		-L"$(dirname "$plugin")" -lrte_mempool_turbomem \
		-Wl,-rpath,"$(dirname "$plugin"):$lib"
	) || return 1
	ldd "$d/api" | grep turbomem
	"$d/api" --no-huge -m 128 --no-pci -l 0 --file-prefix="$(eal_prefix api)"
}

# forbidden_check TARBALL: 26.07's forbidden-token rules over a patch that
# adds drivers/mempool/turbomem (and its line in drivers/mempool/meson.build)
# to that tree. Findings in files other engineers are rewriting are listed,
# the check fails on any finding.
forbidden_check() {
	local tarball=$1 d=$work/forbidden
	rm -rf "$d"
	mkdir -p "$d/tree"
	tar -xf "$tarball" -C "$d/tree" --strip-components=1 \
		--wildcards '*/devtools/*' '*/drivers/mempool/meson.build' || return 1
	(
	cd "$d/tree" && git init -q && git add -A &&
		git -c user.name=tm -c user.email=tm@localhost commit -qm base &&
		cp -r "$top/drivers/mempool/turbomem" drivers/mempool/ &&
		sed -i "/^drivers = \[/a\        'turbomem'," drivers/mempool/meson.build &&
		git add -A && git diff --cached > "$d/turbomem.patch"
	) || return 1
	echo "patch: $d/turbomem.patch ($(grep -c '^+++ b/' "$d/turbomem.patch") files, $(grep -c '^+' "$d/turbomem.patch") added lines)"
	# The function itself, taken from the release's checkpatches.sh; $0
	# is that script, so it finds check-forbidden-tokens.awk beside it.
	# Its "awk" must be GNU awk: mawk (Debian's default awk) has no \< \>,
	# so the rules written with them (RTE_LOG_REGISTER, printf,
	# __builtin_, __typeof__, ...) would never match.
	command -v gawk >/dev/null || { echo "gawk not found (scripts/deps.sh)"; return 1; }
	mkdir -p "$d/bin"
	ln -sf "$(command -v gawk)" "$d/bin/awk"
	# shellcheck disable=SC2016
	PATH=$d/bin:$PATH bash -c '. <(sed -n "/^check_forbidden_additions() {/,/^}/p" "$0")
		check_forbidden_additions "$1"' \
		"$d/tree/devtools/checkpatches.sh" "$d/turbomem.patch" > "$d/findings.txt"
	local rc=$?
	cat "$d/findings.txt"
	[ $rc -eq 0 ] && [ ! -s "$d/findings.txt" ] && { echo "no findings"; return 0; }
	echo "findings: $(grep -c '^Warning in' "$d/findings.txt") file/rule pairs"
	return 1
}

# --- the rows ----------------------------------------------------------------

forbidden_row() {
	local t
	t=$(dpdk_tarball 26.07) || { set_result 26.07 patch forbidden FAIL; add_row 26.07 patch; return; }
	add_row 26.07 patch
	check 26.07 patch forbidden forbidden_check "$t"
}

# oot VERSION PKG_CONFIG_PATH BINDIR LIBDIR: out-of-tree build and checks.
oot() {
	local v=$1 pcp=$2 bindir=$3 libdir=$4 b=$work/oot-$1
	add_row "$v" out-of-tree
	(
	export PKG_CONFIG_PATH=$pcp PATH=$bindir:$PATH
	[ -n "$libdir" ] && export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	if [ -f "$b/meson-private/coredata.dat" ]; then
		"$MESON" setup --reconfigure "$b" "$top"
	else
		rm -rf "$b"
		"$MESON" setup "$b" "$top"
	fi && "$NINJA" -C "$b"
	) > "$work/logs/$v-out-of-tree-build.log" 2>&1 ||
		{ tail -30 "$work/logs/$v-out-of-tree-build.log" >&2; fail_row "$v" out-of-tree "build failed"; return; }
	local plugin=$b/librte_mempool_turbomem.so
	(
	export PATH=$bindir:$PATH
	[ -n "$libdir" ] && export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	check "$v" out-of-tree fast "$MESON" test -C "$b" --suite fast --print-errorlogs
	check "$v" out-of-tree mempool autotest "$bindir/dpdk-test" "$plugin" mempool_autotest
	check "$v" out-of-tree mbuf autotest "$bindir/dpdk-test" "$plugin" mbuf_autotest
	check "$v" out-of-tree testpmd testpmd_check "$bindir/dpdk-testpmd" "$plugin"
	check "$v" out-of-tree exports exports_check "$plugin"
	)
}

# intree VERSION PREFIX: DPDK's own build of the driver, its apps.
intree() {
	local v=$1 prefix=$2 lib plugin
	add_row "$v" in-tree
	lib=$(dpdk_libdir "$prefix")
	plugin=$(dpdk_intree_plugin "$prefix")
	(
	export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	check "$v" in-tree mempool autotest "$prefix/bin/dpdk-test" "$plugin" mempool_autotest
	check "$v" in-tree mbuf autotest "$prefix/bin/dpdk-test" "$plugin" mbuf_autotest
	check "$v" in-tree testpmd testpmd_check "$prefix/bin/dpdk-testpmd" "$plugin"
	check "$v" in-tree exports exports_check "$plugin" intree
	if [ "$v" = 26.07 ]; then
		check "$v" in-tree api api_check "$prefix" "$plugin"
	fi
	)
}

run_version() {
	local v=$1 t prefix lib
	case $v in
	22.11)
		if ! pkg-config --exists 'libdpdk >= 22.11' ||
			[ "$(pkg-config --modversion libdpdk | cut -d. -f1,2)" != 22.11 ]; then
			fail_row 22.11 out-of-tree "the installed libdpdk is not 22.11"
		else
			oot 22.11 "${PKG_CONFIG_PATH:-}" /usr/bin ""
		fi
		t=$(dpdk_debian_tarball) || { fail_row 22.11 in-tree "no Debian source"; return; }
		log "22.11 in tree: building $t (cached)"
		prefix=$(dpdk_build "$t") || { fail_row 22.11 in-tree "build failed"; return; }
		intree 22.11 "$prefix"
		;;
	*)
		t=$(dpdk_tarball "$v") || { fail_row "$v" in-tree "no tarball"; fail_row "$v" out-of-tree "no tarball"; return; }
		log "$v: building $t (cached)"
		prefix=$(dpdk_build "$t") || { fail_row "$v" in-tree "build failed"; fail_row "$v" out-of-tree "build failed"; return; }
		lib=$(dpdk_libdir "$prefix")
		intree "$v" "$prefix"
		check "$v" in-tree stdatomic dpdk_build_driver "$t" -Denable_stdatomic=true
		oot "$v" "$lib/pkgconfig" "$prefix/bin" "$lib"
		;;
	esac
}

t_all=$SECONDS
if [ $mode = forbidden ]; then
	forbidden_row
else
	for v in $versions; do
		run_version "$v"
	done
	forbidden_row
fi

# --- the table ---------------------------------------------------------------

failed=0
echo
echo "turbomem DPDK matrix ($(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $((SECONDS - t_all)) s; logs in $work/logs)"
printf '%-7s %-12s' version build
for c in "${checks[@]}"; do printf ' %-9s' "$c"; done
echo
for r in "${rows[@]}"; do
	printf '%-7s %-12s' "${r%%|*}" "${r#*|}"
	for c in "${checks[@]}"; do
		s=$(get_result "${r%%|*}" "${r#*|}" "$c")
		[ "$s" = FAIL ] && failed=$((failed + 1))
		printf ' %-9s' "$s"
	done
	echo
done
echo "failed: $failed"
[ $failed -eq 0 ]
