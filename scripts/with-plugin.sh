#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# with-plugin.sh PLUGIN COMMAND [ARGS...]
#
# Run COMMAND with every argument "@PLUGIN@" replaced by a path to PLUGIN
# that EAL accepts for -d, and "@TREE@" inside any argument replaced by a
# short hash of PLUGIN's path, so that EAL --file-prefix values of two build
# trees (worktrees, sanitizer builds) running tests at once do not collide. EAL refuses plugins in a directory that is, or
# has a parent that is, world-writable (a build tree under /tmp, say); the
# plugin is then copied to a private directory ($TM_PLUGIN_STAGE, default
# $HOME/.cache/turbomem-plugins) first.
set -euo pipefail

plugin=$(realpath "$1")
shift

insecure() { # dir: 0 if it or a parent is world-writable
	local d=$1
	while :; do
		[ -n "$(find "$d" -maxdepth 0 -perm -0002 2>/dev/null)" ] && return 0
		[ "$d" = / ] && return 1
		d=$(dirname "$d")
	done
}

path=$plugin
if insecure "$(dirname "$plugin")"; then
	stage=${TM_PLUGIN_STAGE:-${HOME:-/root}/.cache/turbomem-plugins}
	sum=$(sha256sum "$plugin" | cut -c1-16)
	dir=$stage/$sum
	mkdir -p "$dir"
	chmod 0755 "$dir"
	if insecure "$dir"; then
		echo "with-plugin.sh: $plugin and $dir are under world-writable directories; EAL will refuse -d (set TM_PLUGIN_STAGE)" >&2
		exit 1
	fi
	cp -f "$plugin" "$dir/" 
	path=$dir/$(basename "$plugin")
fi

tree=$(printf '%s' "$plugin" | cksum | cut -d' ' -f1)
args=()
for a in "$@"; do
	[ "$a" = "@PLUGIN@" ] && a=$path
	args+=("${a//@TREE@/$tree}")
done
exec "${args[@]}"
