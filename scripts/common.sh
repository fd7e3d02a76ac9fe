# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Shell helpers shared by the turbomem scripts (sourced, not run).

# pick_tool NAME DEFAULT-PATH: the distribution's tool when present (so a
# pip or pyenv meson earlier on PATH is not picked up), else NAME on PATH.
pick_tool() {
	if [ -x "$2" ]; then
		echo "$2"
	elif command -v "$1" >/dev/null 2>&1; then
		command -v "$1"
	else
		return 1
	fi
}
