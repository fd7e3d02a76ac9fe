# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Shell helper (sourced by intree.sh and l3fwd.sh): Debian's source of the
# installed DPDK.

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
