#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Install what building, testing and benchmarking turbomem needs, from the
# distribution's packages (Debian 12 / DPDK 22.11 is the reference system).
#
# Idempotent: packages are checked with dpkg-query first, and apt-get runs
# only when something is missing, so a second run installs nothing and does
# not touch the network.
#
# Runs apt-get as root, through sudo when not root and sudo is available.
#
# "deps.sh numa" adds what the numa stage's two-node guest needs:
# qemu-system-x86, busybox-static, python3-pip, a kernel (linux-image-amd64,
# where /boot has none) and virtme-ng (pip, where no vng is on PATH).
#
# Environment:
#   TM_DEPS_EXTRA   more Debian packages to install (space separated)
#   TM_DEPS_SKIP=1  check nothing, install nothing (for systems set up by hand)

set -euo pipefail

# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if [ "${TM_DEPS_SKIP:-0}" = 1 ]; then
	log "TM_DEPS_SKIP=1: not checking packages"
	exit 0
fi

packages=(
	build-essential     # gcc, make, libc headers
	pkg-config
	meson               # >= 0.63 (Debian 12 has 1.0.1)
	ninja-build
	python3
	python3-pyelftools  # pmdinfogen, for in-tree DPDK builds
	python3-sphinx      # doc/ (DPDK-style guides), meson test "docs"
	dpdk                # dpdk-testpmd, dpdk-test, the runtime libraries
	dpdk-dev            # dpdk-devbind, dpdk-telemetry.py, ...
	libdpdk-dev         # headers and libdpdk.pc
	libnuma-dev
	valgrind
	python3-matplotlib  # charts of benchmark results
	iproute2
	procps
	curl                # scripts/dpdk.sh: a DPDK release tarball
	xz-utils            # ... and unpacking it
	git                 # scripts/dpdk.sh matrix: the patch of the forbidden-token check
	gawk                # ... and its awk rules (mawk lacks \< \>)
	openvswitch-switch-dpdk  # the ovs stage: OVS 3.1 built on DPDK 22.11
	iputils-ping        # ... its packets from namespaces
	clang               # the patch series (scripts/series.sh): its last patch built with clang
	codespell           # ... checkpatches.sh's spelling check
	coccinelle          # ... devtools/cocci.sh
	doxygen             # ... DPDK's documentation build (-Denable_docs=true)
	iwyu                # ... devtools/process-iwyu.py (unused includes)
)
# shellcheck disable=SC2206
packages+=(${TM_DEPS_EXTRA:-})
numa=0
[ "${1:-}" = numa ] && numa=1
if [ $numa = 1 ]; then
	# python3-pip: virtme-ng comes from PyPI (numa_pip below).
	packages+=(qemu-system-x86 busybox-static python3-pip)
	ls /boot/vmlinuz-* >/dev/null 2>&1 || packages+=(linux-image-amd64)
fi

# virtme-ng from PyPI (Debian 12 has no package of it).
numa_pip() {
	[ $numa = 1 ] || return 0
	command -v vng >/dev/null 2>&1 && return 0
	log "installing virtme-ng (pip)"
	python3 -m pip install --quiet virtme-ng ||
		python3 -m pip install --quiet --break-system-packages virtme-ng ||
		log "cannot install virtme-ng: the numa stage will skip"
	command -v pyenv >/dev/null 2>&1 && pyenv rehash || true
}

# The kernel's checkpatch.pl, for DPDK's devtools/checkpatches.sh (the
# series check): the three files it reads, taken from Debian's
# linux-source package into the cache, the package itself not installed
# (it is a 140 MB tarball of the kernel).
checkpatch() {
	local dir=${TM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/turbomem}/checkpatch pkg deb tmp
	[ -x "$dir/scripts/checkpatch.pl" ] && return 0
	pkg=$(apt-cache depends linux-source 2>/dev/null | sed -n 's/.*Depends: \(linux-source-[0-9.]*\)$/\1/p' | head -1)
	[ -n "$pkg" ] || { log "no linux-source package known to apt: the series check will fail at checkpatches"; return 0; }
	log "extracting checkpatch.pl from $pkg into $dir"
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download "$pkg" >/dev/null 2>&1) || { rm -rf "$tmp"; log "apt-get download $pkg failed"; return 0; }
	deb=$(ls "$tmp"/*.deb)
	mkdir -p "$dir"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards '*/linux-source-*.tar.xz' | xz -dc |
		tar -x -C "$dir" --strip-components=1 --wildcards '*/scripts/checkpatch.pl' \
			'*/scripts/spelling.txt' '*/scripts/const_structs.checkpatch' ||
		log "extracting checkpatch.pl from $deb failed"
	rm -rf "$tmp"
}

command -v dpkg-query >/dev/null 2>&1 ||
	die "dpkg-query not found: this script supports Debian/Ubuntu only; install the equivalent of: ${packages[*]}"

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*" installed") ;;
	*) missing+=("$p") ;;
	esac
done

if [ ${#missing[@]} -eq 0 ]; then
	log "all ${#packages[@]} packages already installed"
	checkpatch
	numa_pip
	exit 0
fi

log "missing packages: ${missing[*]}"

if [ "$(id -u)" -eq 0 ]; then
	as_root=(env)
elif command -v sudo >/dev/null 2>&1; then
	as_root=(sudo env)
else
	die "not root and sudo is not available; as root run: apt-get install ${missing[*]}"
fi

"${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get update
"${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get install -y \
	--no-install-recommends "${missing[@]}"

# Check the result, not apt-get's word for it.
still=()
for p in "${missing[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*" installed") ;;
	*) still+=("$p") ;;
	esac
done
[ ${#still[@]} -eq 0 ] || die "still missing after apt-get install: ${still[*]}"

log "installed: ${missing[*]}"
checkpatch
numa_pip
