#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# with-plugin.sh [--hugepages N] PLUGIN COMMAND [ARGS...]
#
# Run COMMAND with every argument "@PLUGIN@" replaced by a path to PLUGIN
# that EAL accepts for -d, and "@TREE@" inside any argument replaced by a
# short hash of PLUGIN's path, so that EAL --file-prefix values of two build
# trees (worktrees, sanitizer builds) running tests at once do not collide.
# What EAL leaves of each --file-prefix given to COMMAND is removed when
# COMMAND ends (eal_remove).
# EAL refuses plugins in a directory that is, or has a parent that is,
# world-writable (a build tree under /tmp, say); the plugin is then copied
# to a private directory ($TM_PLUGIN_STAGE, default
# $HOME/.cache/turbomem-plugins, a subdirectory per content hash) first,
# once, never over a copy that a running test may have mapped.
#
# --hugepages N: first make sure N free 2 MB hugepages are reserved
# (reserve_hugepages, which never lowers a reservation); exit 77 (meson's
# "skipped") when they cannot be had: not root, no hugetlbfs, memory
# fragmented. COMMAND must limit EAL memory (-m / --socket-mem).
set -euo pipefail

# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if [ "${1:-}" = --hugepages ]; then
	reserve_hugepages "$2" >/dev/null ||
		{ echo "with-plugin.sh: SKIP: $2 free 2 MB hugepages not available" >&2; exit 77; }
	shift 2
fi
plugin=$(realpath "$1")
shift

path=$plugin
if insecure_dir "$(dirname "$plugin")"; then
	stage=${TM_PLUGIN_STAGE:-${HOME:-/root}/.cache/turbomem-plugins}
	dir=$stage/$(sha256sum "$plugin" | cut -c1-16)
	mkdir -p "$dir"
	[ "$(stat -c %a "$dir")" = 755 ] || chmod 0755 "$dir"
	insecure_dir "$dir" &&
		die "$plugin and $dir are under world-writable directories; EAL will refuse -d (set TM_PLUGIN_STAGE)"
	path=$dir/$(basename "$plugin")
	# A copy already there is left alone: another test (meson runs them
	# in parallel) or another tree may have it mapped, and rewriting a
	# mapped library in place kills that process (SIGBUS). A new copy is
	# made under a temporary name and renamed into place: the file is
	# complete or absent, and a process that mapped the old one keeps it.
	tmp=$dir/.stage.$$
	if ! cmp -s "$plugin" "$path" &&
		! err=$({ cp "$plugin" "$tmp" && chmod 0755 "$tmp" && mv -f "$tmp" "$path"; } 2>&1); then
		rm -f "$tmp"
		die "cannot copy $plugin into $dir: ${err##*: } (set TM_PLUGIN_STAGE)"
	fi
fi

tree=$(path_tag "$plugin")
args=()
prefixes=()
prev=
for a in "$@"; do
	[ "$a" = "@PLUGIN@" ] && a=$path
	a=${a//@TREE@/$tree}
	args+=("$a")
	case $a in
	--file-prefix=*) prefixes+=("${a#--file-prefix=}") ;;
	*) [ "$prev" != --file-prefix ] || prefixes+=("$a") ;;
	esac
	prev=$a
done
[ ${#prefixes[@]} -gt 0 ] || exec "${args[@]}"
# EAL leaves the runtime directory and hugepage files of its prefix
# behind: removed once COMMAND has ended, however it ended (a timeout or
# an interrupted run signals the whole process group: COMMAND ends first).
trap 'eal_remove "${prefixes[@]}"' EXIT
rc=0
"${args[@]}" || rc=$?
exit $rc
