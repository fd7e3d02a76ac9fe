#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# turbomem in DPDK source trees: the builds, and the checks on them.
#
# dpdk.sh matrix [WORKDIR]     (default: build-matrix)
#   turbomem on two DPDK releases, each built two ways, with a table of
#   version x build x check at the end:
#   22.11  Debian's DPDK (dpkg): out of tree, the -d plugin built by the
#          top-level meson.build against the installed libdpdk;
#          in tree, Debian's source of it (apt-get source) built with
#          turbomem under drivers/mempool/ (dpdk_build).
#   26.07  the release tarball (dpdk_tarball), built with turbomem in tree
#          and installed into a private prefix (dpdk_build, cached by
#          checksum); out of tree, the plugin built against that prefix
#          with PKG_CONFIG_PATH.
#   Checks (a "-" in the table: does not apply):
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
#   series    26.07: the driver as a patch series against that release
#             (scripts/series.sh check: git am, every patch built, DPDK's
#             devtools, tests and documentation build on the series)
#   Environment: TM_MATRIX_VERSIONS (default "22.11 26.07");
#   TM_MATRIX_FAST_SYSTEM=WHAT: the fast suite against the system's DPDK
#   is run by WHAT (test.sh sets it when its fast stage runs): that cell
#   is "-".
# dpdk.sh forbidden [WORKDIR]
#   Only the forbidden-token check.
# dpdk.sh series [OUTDIR]
#   The driver as a git format-patch series against DPDK 26.07, in
#   OUTDIR/patches (default build-series): scripts/series.sh generate.
# dpdk.sh series-check [WORKDIR]
#   The series and its checks (the matrix's series cell): series.sh check.
# dpdk.sh intree
#   The in-tree build of one DPDK (Debian's source of the installed one, or
#   with TM_INTREE_DPDK=VERSION a release tarball) and that tree's testpmd
#   forwarding on the tree's build of turbomem, checked through telemetry
#   (the "intree" test of the ci suite).
# Environment of all: TM_DPDK_TARBALL, TM_CACHE_DIR, MESON, NINJA.
#
# Sourced, it gives the shell functions below:
# dpdk_source WORKDIR
#	Debian's source of the installed DPDK (apt-get source), for l3fwd.
# dpdk_debian_tarball
#	Debian's upstream tarball of the installed DPDK.
# dpdk_tarball VERSION
#	Path of a release tarball: $TM_DPDK_TARBALL, else
#	../shared/dpdk/dpdk-VERSION.tar.xz seen from the repository root
#	(checked against its SHA256SUMS), else downloaded from fast.dpdk.org
#	into the cache.
# dpdk_build TARBALL [MESON-OPTION...]
#	Builds that DPDK with turbomem in tree (shared libraries, dpdk-testpmd,
#	dpdk-test where the release can build it without every library, a
#	minimal driver and library set: _dpdk_options) and installs it into a private
#	prefix; prints the prefix. Cached outside the clone in
#	${TM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/turbomem}: the DPDK
#	build by the tarball's checksum and the options, the installed prefix
#	also by the driver's sources, so a second run takes seconds and a
#	driver change recompiles only turbomem.
#
# The prefix holds bin/ (apps, linked to the shared libraries: run them with
# LD_LIBRARY_PATH=$(dpdk_libdir PREFIX)), lib/<multiarch>/pkgconfig
# (libdpdk.pc, for PKG_CONFIG_PATH) and, beside DPDK's own plugin
# directory, DPDK's build of turbomem in
# lib/<multiarch>/dpdk/turbomem-<driver hash>/ (dpdk_intree_plugin), which
# EAL loads only with -d.

# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

dpdk_cache_dir() {
	echo "${TM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/turbomem}"
}

# dpdk_source WORKDIR: print the path of dpdk-<version> under WORKDIR,
# fetching it with "apt-get source dpdk=<installed version>" first if it is
# not there. deb-src entries are derived from the machine's own Debian
# sources (never a hard-coded mirror).
dpdk_source() {
	local work=$1 ver upstream sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	ver=$(dpkg-query -W -f='${Version}' libdpdk-dev)
	upstream=${ver%%-*}
	mkdir -p "$work"
	if [ ! -d "$work/dpdk-$upstream" ]; then
		_dpdk_add_deb_src "$sudo"
		echo "dpdk_source: fetching Debian's dpdk source $ver" >&2
		(cd "$work" && apt-get source -qq "dpdk=$ver" >/dev/null 2>&1) || {
			echo "dpdk_source: apt-get source dpdk=$ver failed" >&2
			return 1
		}
	fi
	echo "$work/dpdk-$upstream"
}

_dpdk_add_deb_src() {
	local sudo=$1 f out
	if grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ ||
		grep -qs '^deb-src ' /etc/apt/sources.list; then
		return
	fi
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		grep -q 'debian' "$f" || continue
		out=/etc/apt/sources.list.d/turbomem-src-$(basename "$f")
		sed 's/^Types: deb$/Types: deb-src/' "$f" | $sudo tee "$out" >/dev/null
	done
	if grep -qs '^deb ' /etc/apt/sources.list; then
		sed -n 's/^deb /deb-src /p' /etc/apt/sources.list |
			$sudo tee /etc/apt/sources.list.d/turbomem-src.list >/dev/null
	fi
	$sudo apt-get update -qq
}

# dpdk_debian_tarball: Debian's upstream tarball of the installed DPDK
# (dpdk_<version>.orig.tar.xz, fetched with apt-get source into the cache).
dpdk_debian_tarball() {
	local work src t
	work=$(dpdk_cache_dir)/debian-source
	src=$(dpdk_source "$work") || return 1
	t=$(ls "$work"/dpdk_*.orig.tar.* 2>/dev/null | head -1)
	[ -n "$t" ] || { echo "dpdk_debian_tarball: no .orig tarball beside $src" >&2; return 1; }
	echo "$t"
}

dpdk_tarball() {
	local ver=$1 shared origin sums want got dl
	if [ -n "${TM_DPDK_TARBALL:-}" ]; then
		[ -r "$TM_DPDK_TARBALL" ] || { echo "dpdk_tarball: TM_DPDK_TARBALL=$TM_DPDK_TARBALL is not readable" >&2; return 1; }
		echo "$TM_DPDK_TARBALL"
		return
	fi
	# ../shared/dpdk beside the checkout, or beside the checkout a local
	# clone was made from (a fresh clone elsewhere, as CI makes).
	shared=$tm_top/../shared/dpdk
	origin=$(git -C "$tm_top" config --get remote.origin.url 2>/dev/null || true)
	if [ ! -r "$shared/dpdk-$ver.tar.xz" ] && [ -d "$origin" ]; then
		shared=$origin/../shared/dpdk
	fi
	if [ -r "$shared/dpdk-$ver.tar.xz" ]; then
		sums=$shared/SHA256SUMS
		if [ -r "$sums" ]; then
			want=$(awk -v f="dpdk-$ver.tar.xz" '$2 == f || $2 == "*" f { print $1 }' "$sums")
			got=$(sha256sum "$shared/dpdk-$ver.tar.xz" | cut -d' ' -f1)
			if [ -n "$want" ] && [ "$want" != "$got" ]; then
				echo "dpdk_tarball: $shared/dpdk-$ver.tar.xz: sha256 $got, SHA256SUMS says $want" >&2
				return 1
			fi
		fi
		(cd "$shared" && echo "$(pwd)/dpdk-$ver.tar.xz")
		return
	fi
	dl=$(dpdk_cache_dir)/download
	mkdir -p "$dl"
	if [ ! -s "$dl/dpdk-$ver.tar.xz" ]; then
		echo "dpdk_tarball: downloading https://fast.dpdk.org/rel/dpdk-$ver.tar.xz" >&2
		curl -fsSL -o "$dl/dpdk-$ver.tar.xz.part" "https://fast.dpdk.org/rel/dpdk-$ver.tar.xz" || {
			rm -f "$dl/dpdk-$ver.tar.xz.part"
			echo "dpdk_tarball: download failed; set TM_DPDK_TARBALL to a local copy" >&2
			return 1
		}
		mv "$dl/dpdk-$ver.tar.xz.part" "$dl/dpdk-$ver.tar.xz"
	fi
	echo "$dl/dpdk-$ver.tar.xz"
}

# The driver set every cached build has (turbomem is added in tree).
TM_DPDK_DRIVERS=mempool/ring,mempool/stack,mempool/bucket,mempool/turbomem,net/null,bus/vdev
# Names the option set of _dpdk_options in the cache key: change it with
# them, so that a cached tree is never reused with other options.
TM_DPDK_PROFILE=minimal-2

# _dpdk_options SRC: the meson options of a tree, only what the checks use:
# the drivers above, testpmd, and the libraries DPDK cannot build without.
# Where dpdk-test builds each test only if its libraries are there
# (app/test/meson.build's source_file_deps, 26.07), it comes along and the
# mempool and mbuf autotests run on the tree's own build. 22.11's dpdk-test
# needs every library: that tree has no tests, and its autotests run on
# Debian's dpdk-test of the same release.
_dpdk_options() {
	echo -Denable_drivers=$TM_DPDK_DRIVERS
	if grep -qs source_file_deps "$1/app/test/meson.build"; then
		echo -Denable_apps=test-pmd,test -Dtests=true -Ddisable_libs=*
	else
		echo -Denable_apps=test-pmd -Dtests=false \
			-Ddisable_libs=bitratestats,cfgfile,flow_classify,gpudev,gro,gso,kni,jobstats,latencystats,metrics,node,pdump,pipeline,port,power,table,vhost
	fi
}

# _dpdk_sync_driver DST: copy the driver's sources into DST, touching only
# the files that differ (ninja then recompiles only what changed). A tree
# older than DPDK 25.07 (no eal_export.h) gets the compatibility header
# and version.map of compat/ too, the header given to every file
# (-include), as the out-of-tree build does; one older than 23.11 also
# compat/stdatomic's rte_stdatomic.h (the driver's directory is on its
# include path).
_dpdk_sync_driver() {
	local dst=$1 f src=$tm_top/drivers/mempool/turbomem tmp
	local tree=${1%/drivers/mempool/turbomem}
	tmp=$(mktemp -d)
	cp "$src"/* "$tmp/"
	[ -e "$tree/lib/eal/include/rte_stdatomic.h" ] ||
		cp "$tm_top/compat/stdatomic/rte_stdatomic.h" "$tmp/"
	if [ ! -e "$tree/lib/eal/common/eal_export.h" ]; then
		cp "$tm_top"/compat/eal_export.h "$tm_top"/compat/version.map "$tmp/"
		printf '%s\n' "" "# compat/eal_export.h (scripts/dpdk.sh): a DPDK older than 25.07." \
			"cflags += ['-include', meson.current_source_dir() / 'eal_export.h']" >> "$tmp/meson.build"
	fi
	mkdir -p "$dst"
	for f in "$dst"/*; do
		[ -e "$f" ] || continue
		[ -e "$tmp/${f##*/}" ] || rm -f "$f"
	done
	for f in "$tmp"/*; do
		cmp -s "$f" "$dst/${f##*/}" || cp "$f" "$dst/${f##*/}"
	done
	rm -rf "$tmp"
}

dpdk_driver_sha() {
	(cd "$tm_top" && cat -- drivers/mempool/turbomem/* compat/*.* compat/stdatomic/* |
		sha256sum | cut -c1-12)
}

# dpdk_libdir PREFIX: the directory of the shared libraries (and pkgconfig),
# an absolute path; empty where PREFIX holds no libdpdk.pc (not a DPDK
# installed with meson) or is empty itself (not the root's /lib*).
dpdk_libdir() {
	local pc
	[ -n "$1" ] || return 0
	# ls fails where one of the patterns matches nothing: not an error here.
	pc=$(ls "$1"/lib*/*/pkgconfig/libdpdk.pc "$1"/lib*/pkgconfig/libdpdk.pc 2>/dev/null | head -1) || true
	[ -z "$pc" ] || dirname "$(dirname "$(readlink -f "$pc")")"
}

# dpdk_intree_plugin PREFIX: DPDK's own build of turbomem (in tree) of the
# current driver sources, made by dpdk_build.
dpdk_intree_plugin() {
	local lib
	lib=$(dpdk_libdir "$1")
	[ -n "$lib" ] || { echo "dpdk_intree_plugin: $1: no libdpdk.pc under it" >&2; return 1; }
	echo "$lib/dpdk/turbomem-$(dpdk_driver_sha)/librte_mempool_turbomem.so"
}

# _dpdk_prepare TARBALL ROOT MESON-OPTION...: unpack, add turbomem, sync
# its sources and configure ROOT/build (once). Caller holds the lock.
_dpdk_prepare() {
	local tarball=$1 root=$2 src b log
	shift 2
	src=$root/src
	b=$root/build
	log=$root/build.log
	if [ ! -e "$src/.unpacked" ]; then
		rm -rf "$src" "$b"
		mkdir -p "$src"
		echo "dpdk_build: unpacking ${tarball##*/} into $src" >&2
		tar -xf "$tarball" -C "$src" --strip-components=1 || return 1
		if ! grep -q "'turbomem'" "$src/drivers/mempool/meson.build"; then
			sed -i "/^drivers = \[/a\        'turbomem'," "$src/drivers/mempool/meson.build"
		fi
		touch "$src/.unpacked"
	fi
	_dpdk_sync_driver "$src/drivers/mempool/turbomem"
	if [ ! -e "$b/build.ninja" ]; then
		rm -rf "$b"
		echo "dpdk_build: configuring DPDK $(cat "$src/VERSION") with turbomem in tree ($b)" >&2
		# pmdinfogen needs pyelftools in the python that runs meson:
		# Debian's, first on PATH (26.07 looks python3 up there).
		local opts
		read -r -a opts <<<"$(_dpdk_options "$src" | tr '\n' ' ')"
		PATH=/usr/bin:$PATH /usr/bin/python3 "$(command -v meson)" setup "$b" "$src" \
			--prefix="$root/prefix" -Ddefault_library=shared \
			"${opts[@]}" -Denable_docs=false "$@" > "$log" 2>&1 ||
			{ tail -30 "$log" >&2; rm -rf "$b"; return 1; }
		grep -q 'turbomem' "$log" ||
			{ echo "dpdk_build: turbomem not enabled (see $log)" >&2; return 1; }
	fi
}

# _dpdk_ninja ROOT [TARGET...]: build; turbomem must compile without a
# warning.
_dpdk_ninja() {
	local root=$1 log=$1/ninja.log
	shift
	PATH=/usr/bin:$PATH ninja -C "$root/build" "$@" > "$log" 2>&1 ||
		{ grep -E -B2 -A8 'error|FAILED' "$log" | head -60 >&2; return 1; }
	cat "$log" >> "$root/build.log"
	if grep -E -A3 'turbomem/.*warning' "$log" >&2; then
		echo "dpdk_build: turbomem compiled with warnings" >&2
		return 1
	fi
}

# dpdk_build TARBALL [MESON-OPTION...]: print the prefix (see the top).
dpdk_build() {
	local tarball=$1 tsha osha root
	shift
	[ -r "$tarball" ] || { echo "dpdk_build: $tarball: not readable" >&2; return 1; }
	# The prefix's EAL loads its drivers from there: it refuses them below
	# a world-writable directory.
	if insecure_dir "$(dpdk_cache_dir)"; then
		echo "dpdk_build: cache directory $(dpdk_cache_dir) is below a world-writable directory, where EAL refuses to load drivers; set TM_CACHE_DIR elsewhere" >&2
		return 1
	fi
	tsha=$(sha256sum "$tarball" | cut -c1-16)
	osha=$(printf '%s\n' "$TM_DPDK_PROFILE" "$@" | sha256sum | cut -c1-8)
	root=$(dpdk_cache_dir)/dpdk-$tsha-$osha
	mkdir -p "$root"
	if [ -e "$root/prefix/.complete" ] &&
		[ -e "$(dirname "$(dpdk_intree_plugin "$root/prefix")")/.complete" ]; then
		echo "$root/prefix"
		return
	fi
	(
	flock 9
	local t0 lib so dir
	t0=$(date +%s)
	_dpdk_prepare "$tarball" "$root" "$@" || exit 1
	echo "dpdk_build: building (ninja -C $root/build)" >&2
	_dpdk_ninja "$root" || exit 1
	if [ ! -e "$root/prefix/.complete" ]; then
		rm -rf "$root/prefix"
		meson install -C "$root/build" --quiet >> "$root/build.log" 2>&1 ||
			{ tail -20 "$root/build.log" >&2; exit 1; }
		# The prefix is DPDK as a distribution ships it, without
		# turbomem: EAL loads pmds-* by itself. DPDK's build of
		# turbomem goes beside, one directory per driver version.
		lib=$(dpdk_libdir "$root/prefix")
		[ -n "$lib" ] || { echo "dpdk_build: $root/prefix: no libdpdk.pc after meson install" >&2; exit 1; }
		rm -f "$lib"/librte_mempool_turbomem.* "$lib"/dpdk/pmds-*/librte_mempool_turbomem.*
		touch "$root/prefix/.complete"
	fi
	so=$(dpdk_intree_plugin "$root/prefix") || exit 1
	dir=$(dirname "$so")
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$(readlink -f "$root/build/drivers/librte_mempool_turbomem.so")" "$dir/" &&
	(cd "$dir" && mv -- *.so.* librte_mempool_turbomem.so &&
		ln -s librte_mempool_turbomem.so "$(objdump -p librte_mempool_turbomem.so |
			awk '$1 == "SONAME" { print $2 }')") || exit 1
	touch "$dir/.complete"
	# Keep the three newest driver versions.
	ls -dt "$(dirname "$dir")"/turbomem-* | tail -n +4 | xargs -r rm -rf
	echo "dpdk_build: DPDK $(cat "$root/src/VERSION") ready in $(( $(date +%s) - t0 )) s: $root/prefix" >&2
	) 9> "$root/lock" || return 1
	echo "$root/prefix"
}

# dpdk_build_driver TARBALL [MESON-OPTION...]: compile only turbomem (and
# what it needs) in a tree configured with these options, e.g.
# -Denable_stdatomic=true; nothing is installed.
dpdk_build_driver() {
	local tarball=$1 tsha osha root
	shift
	tsha=$(sha256sum "$tarball" | cut -c1-16)
	osha=$(printf '%s\n' "$TM_DPDK_PROFILE" "$@" | sha256sum | cut -c1-8)
	root=$(dpdk_cache_dir)/dpdk-$tsha-$osha
	mkdir -p "$root"
	(
	flock 9
	_dpdk_prepare "$tarball" "$root" "$@" || exit 1
	local tgt
	tgt=$(ninja -C "$root/build" -t targets all |
		awk -F: '$1 ~ /^drivers\/librte_mempool_turbomem\.so\.[0-9.]+$/ { print $1; exit }')
	[ -n "$tgt" ] || { echo "dpdk_build_driver: no turbomem target in $root/build" >&2; exit 1; }
	echo "dpdk_build_driver: ninja -C $root/build $tgt" >&2
	_dpdk_ninja "$root" "$tgt" || exit 1
	) 9> "$root/lock"
}

# oot_build PREFIX: configure (once) and build this project out of tree
# against the DPDK installed in PREFIX, in build-dpdk-<its version> at the
# repository root; sets oot_dir, oot_version, oot_libdir (its shared
# libraries, for LD_LIBRARY_PATH) and oot_pkgconfig (the directory of its
# libdpdk.pc). Dies, naming the prefix, where it holds no libdpdk.pc.
oot_build() {
	MESON=${MESON:-$(pick_tool meson /usr/bin/meson)}
	NINJA=${NINJA:-$(pick_tool ninja /usr/bin/ninja)}
	oot_libdir=$(dpdk_libdir "$1")
	[ -n "$oot_libdir" ] || die "DPDK prefix $1: no libdpdk.pc under it (a DPDK installed with meson install)"
	oot_pkgconfig=$oot_libdir/pkgconfig
	oot_version=$(PKG_CONFIG_PATH=$oot_pkgconfig pkg-config --modversion libdpdk)
	oot_dir=$tm_top/build-dpdk-$oot_version
	[ -f "$oot_dir/build.ninja" ] ||
		PKG_CONFIG_PATH=$oot_pkgconfig "$MESON" setup "$oot_dir" "$tm_top" >/dev/null ||
		die "configuring $oot_dir against $1 failed"
	"$NINJA" -C "$oot_dir" >/dev/null || die "building $oot_dir failed"
}

# dpdk_measure: the DPDK a measuring script (bench.sh, ab.sh) runs on,
# where one other than the system's is asked for (nothing done otherwise):
#   TM_BENCH_DPDK=VERSION  a release, built with turbomem in tree and
#                          installed in a private prefix (dpdk_build of
#                          dpdk_tarball VERSION, cached by checksum)
#   TM_DPDK_PREFIX=DIR     a DPDK already installed in DIR
# Builds this project out of tree against it (oot_build), sets
# TM_BUILD_DIR to that build and exports LD_LIBRARY_PATH (its libraries;
# EAL loads its own mempool drivers) and PKG_CONFIG_PATH (so that any
# further meson setup, such as ab.sh's variants, builds against it too).
dpdk_measure() {
	[ -n "${TM_BENCH_DPDK:-}${TM_DPDK_PREFIX:-}" ] || return 0
	if [ -n "${TM_BENCH_DPDK:-}" ]; then
		TM_DPDK_PREFIX=$(dpdk_build "$(dpdk_tarball "$TM_BENCH_DPDK")") ||
			die "DPDK $TM_BENCH_DPDK: no build (see the lines above)"
	fi
	oot_build "$TM_DPDK_PREFIX"
	TM_BUILD_DIR=$oot_dir
	export LD_LIBRARY_PATH=$oot_libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export PKG_CONFIG_PATH=$oot_pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
	log "measuring on DPDK $oot_version ($TM_DPDK_PREFIX), built out of tree in $oot_dir"
}

# --- dpdk.sh matrix / forbidden / intree -------------------------------------

# Results are files ($work/result/VERSION.BUILD.CHECK), so that checks may
# run in subshells with their own environment.
matrix_init() {
	work=$(realpath -m "${1:-$tm_top/build-matrix}")
	mkdir -p "$work/logs"
	rm -rf "$work/result"
	mkdir -p "$work/result"
	rows=()
	checks=(fast mempool mbuf testpmd exports api stdatomic forbidden series)
}

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
	echo "tm-mx-$1-$(path_tag "$tm_top")-$$"
}

# autotest DPDK_TEST PLUGIN TEST: DPDK's autotest on turbomem.
autotest() {
	local dpdk_test=$1 plugin=$2 name=$3 out rc=0
	out=$("$tm_top/scripts/with-plugin.sh" "$plugin" env DPDK_TEST="$name" \
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

# testpmd_check TESTPMD PLUGIN [VERSION]: forwarding on turbomem, through
# telemetry; with VERSION, testpmd.py must name it as testpmd's DPDK.
testpmd_check() {
	local ver
	if [ -n "${3:-}" ]; then
		ver=$(python3 "$tm_top/scripts/testpmd.py" version "$1") || return 1
		echo "testpmd.py version: $ver"
		case "$ver" in "$3".*) ;; *) echo "FAIL: not DPDK $3"; return 1 ;; esac
	fi
	python3 "$tm_top/scripts/testpmd.py" --testpmd "$1" --plugin "$2" --label testpmd \
		--prefix "$(eal_prefix testpmd)" --check list --check info \
		--seconds 2 -- -- --mbcache=0 --total-num-mbufs=8192
}

# exported_api: the rte_pmd_turbomem_* names marked RTE_EXPORT_* at the
# start of a line of the driver's sources, sorted.
exported_api() {
	sed -n 's/^RTE_EXPORT_[A-Z_]*SYMBOL(\(rte_pmd_turbomem_[a-z0-9_]*\).*/\1/p' \
		"$tm_top"/drivers/mempool/turbomem/*.c | sort
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
			"$tm_top/compat/version.map" | sort)
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
	(
	export PKG_CONFIG_PATH=$lib/pkgconfig
	set -x
	# shellcheck disable=SC2046
	cc -Wall -Werror -DALLOW_EXPERIMENTAL_API -o "$d/api" "$tm_top/app/test-turbomem/public_api.c" \
		$(pkg-config --cflags --libs libdpdk) \
		-L"$(dirname "$plugin")" -lrte_mempool_turbomem \
		-Wl,-rpath,"$(dirname "$plugin"):$lib"
	) || return 1
	ldd "$d/api" | grep turbomem
	local rc=0
	"$d/api" --no-huge -m 128 --no-pci -l 0 --file-prefix="$(eal_prefix api)" || rc=$?
	eal_remove "$(eal_prefix api)"
	[ $rc -eq 0 ] || return $rc
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
		cp -r "$tm_top/drivers/mempool/turbomem" drivers/mempool/ &&
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

# series_row: the series cell (scripts/series.sh check), in the same row.
series_row() {
	add_row 26.07 patch
	check 26.07 patch series bash "$tm_top/scripts/series.sh" check "$work/series"
}

# oot VERSION PKG_CONFIG_PATH BINDIR LIBDIR: out-of-tree build and checks.
oot() {
	local v=$1 pcp=$2 bindir=$3 libdir=$4 b=$work/oot-$1
	add_row "$v" out-of-tree
	(
	export PKG_CONFIG_PATH=$pcp PATH=$bindir:$PATH
	[ -n "$libdir" ] && export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	meson_configure "$b" && "$NINJA" -C "$b"
	) > "$work/logs/$v-out-of-tree-build.log" 2>&1 ||
		{ tail -30 "$work/logs/$v-out-of-tree-build.log" >&2; fail_row "$v" out-of-tree "build failed"; return; }
	local plugin=$b/librte_mempool_turbomem.so
	(
	export PATH=$bindir:$PATH
	[ -n "$libdir" ] && export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	if [ "$v" = "$(pkg-config --modversion libdpdk 2>/dev/null | cut -d. -f1,2)" ] &&
		[ -z "$libdir" ] && [ -n "${TM_MATRIX_FAST_SYSTEM:-}" ]; then
		# Run elsewhere on this DPDK (test.sh's fast stage): shown as "-".
		log "$v out-of-tree fast: run by $TM_MATRIX_FAST_SYSTEM"
	else
		check "$v" out-of-tree fast "$MESON" test -C "$b" --suite fast --print-errorlogs
	fi
	check "$v" out-of-tree mempool autotest "$bindir/dpdk-test" "$plugin" mempool_autotest
	check "$v" out-of-tree mbuf autotest "$bindir/dpdk-test" "$plugin" mbuf_autotest
	check "$v" out-of-tree testpmd testpmd_check "$bindir/dpdk-testpmd" "$plugin" "$v"
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
	if [ -x "$prefix/bin/dpdk-test" ]; then
		(
		export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
		check "$v" in-tree mempool autotest "$prefix/bin/dpdk-test" "$plugin" mempool_autotest
		check "$v" in-tree mbuf autotest "$prefix/bin/dpdk-test" "$plugin" mbuf_autotest
		)
	else
		# A tree built without dpdk-test (_dpdk_options): the release's
		# installed one, with its own libraries, runs the tree's driver.
		check "$v" in-tree mempool autotest dpdk-test "$plugin" mempool_autotest
		check "$v" in-tree mbuf autotest dpdk-test "$plugin" mbuf_autotest
	fi
	export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	check "$v" in-tree testpmd testpmd_check "$prefix/bin/dpdk-testpmd" "$plugin" "$v"
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

# matrix_table: print the table; fails if a check failed.
matrix_table() {
	local failed=0 r c s
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
}

# intree_main: the in-tree build of one DPDK and its testpmd on turbomem.
intree_main() {
	local tarball prefix t0=$SECONDS
	case ${TM_INTREE_DPDK:-debian} in
	debian) tarball=$(dpdk_debian_tarball) ;;
	*) tarball=$(dpdk_tarball "$TM_INTREE_DPDK") ;;
	esac || die "no DPDK source"
	prefix=$(dpdk_build "$tarball") || die "the in-tree build failed"
	log "DPDK with turbomem in tree: $prefix ($((SECONDS - t0)) s)"
	log "running the tree's testpmd on its build of turbomem"
	LD_LIBRARY_PATH=$(dpdk_libdir "$prefix")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		testpmd_check "$prefix/bin/dpdk-testpmd" "$(dpdk_intree_plugin "$prefix")" ||
		fail "in-tree testpmd on turbomem"
	log "OK: in-tree build of ${tarball##*/} forwarded on turbomem"
}

# Sourced: the functions only.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

set -uo pipefail
find_meson
t_all=$SECONDS
case ${1:-} in
matrix)
	matrix_init "${2:-}"
	for v in ${TM_MATRIX_VERSIONS:-22.11 26.07}; do
		run_version "$v"
	done
	forbidden_row
	series_row
	matrix_table ;;
forbidden)
	matrix_init "${2:-}"
	forbidden_row
	matrix_table ;;
series)
	exec bash "$tm_top/scripts/series.sh" generate "${2:-}" ;;
series-check)
	exec bash "$tm_top/scripts/series.sh" check "${2:-}" ;;
intree)
	set -e
	intree_main ;;
*)
	die "usage: dpdk.sh matrix|forbidden|series|series-check [DIR] | intree" ;;
esac
