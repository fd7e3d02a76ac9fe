# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Shell helpers (sourced) for DPDK source trees:
#
# dpdk_source WORKDIR
#	Debian's source of the installed DPDK (apt-get source), for l3fwd.sh.
# dpdk_tarball VERSION
#	Path of a release tarball: $TM_DPDK_TARBALL, else
#	../shared/dpdk/dpdk-VERSION.tar.xz seen from the repository root
#	(checked against its SHA256SUMS), else downloaded from fast.dpdk.org
#	into the cache.
# dpdk_build TARBALL [MESON-OPTION...]
#	Builds that DPDK with turbomem in tree (shared libraries, dpdk-testpmd,
#	dpdk-test, a minimal driver set) and installs it into a private
#	prefix; prints the prefix. Cached outside the clone in
#	${TM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/turbomem}: the DPDK
#	build by the tarball's checksum and the options, the installed prefix
#	also by the driver's sources, so a second run takes seconds and a
#	driver change recompiles only turbomem.
#
# The prefix holds bin/ (apps, linked to the shared libraries: run them with
# LD_LIBRARY_PATH=$(dpdk_libdir PREFIX)), lib/<multiarch>/pkgconfig
# (libdpdk.pc, for PKG_CONFIG_PATH) and two driver directories that EAL does
# not load by itself (its built-in plugin path does not exist):
# lib/<multiarch>/dpdk/drivers (all drivers, turbomem built in tree) and
# .../drivers-no-turbomem (the same without it, for the out-of-tree -d
# plugin). Pass one of them with -d.

_dpdk_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

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
	shared=$_dpdk_top/../shared/dpdk
	origin=$(git -C "$_dpdk_top" config --get remote.origin.url 2>/dev/null || true)
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

# _dpdk_sync_driver DST: copy the driver's sources into DST, touching only
# the files that differ (ninja then recompiles only what changed).
_dpdk_sync_driver() {
	local dst=$1 f src=$_dpdk_top/drivers/mempool/turbomem
	mkdir -p "$dst"
	for f in "$dst"/*; do
		[ -e "$f" ] || continue
		[ -e "$src/${f##*/}" ] || rm -f "$f"
	done
	for f in "$src"/*; do
		cmp -s "$f" "$dst/${f##*/}" || cp "$f" "$dst/${f##*/}"
	done
}

dpdk_driver_sha() {
	(cd "$_dpdk_top/drivers/mempool/turbomem" && cat -- * | sha256sum | cut -c1-12)
}

# dpdk_libdir PREFIX: the directory of the shared libraries (and pkgconfig).
dpdk_libdir() {
	local d
	d=$(dirname "$(ls "$1"/lib*/*/pkgconfig/libdpdk.pc "$1"/lib*/pkgconfig/libdpdk.pc 2>/dev/null | head -1)")
	dirname "$d"
}

# dpdk_intree_plugin PREFIX: DPDK's own build of turbomem (in tree) of the
# current driver sources, made by dpdk_build.
dpdk_intree_plugin() {
	echo "$(dpdk_libdir "$1")/dpdk/turbomem-$(dpdk_driver_sha)/librte_mempool_turbomem.so"
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
		PATH=/usr/bin:$PATH /usr/bin/python3 "$(command -v meson)" setup "$b" "$src" \
			--prefix="$root/prefix" -Ddefault_library=shared \
			-Denable_drivers=$TM_DPDK_DRIVERS \
			-Denable_apps=test-pmd,test -Dtests=true \
			-Denable_docs=false "$@" > "$log" 2>&1 ||
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
	tsha=$(sha256sum "$tarball" | cut -c1-16)
	osha=$(printf '%s\n' "$@" | sha256sum | cut -c1-8)
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
		rm -f "$lib"/librte_mempool_turbomem.* "$lib"/dpdk/pmds-*/librte_mempool_turbomem.*
		touch "$root/prefix/.complete"
	fi
	so=$(dpdk_intree_plugin "$root/prefix")
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
	osha=$(printf '%s\n' "$@" | sha256sum | cut -c1-8)
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
