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

# reserve_hugepages N: make sure at least N 2 MB hugepages are free and
# hugetlbfs is mounted at /dev/hugepages. Never lowers a reservation (other
# runs may be using it). Prints the mount point; fails with a message when
# the kernel cannot give N pages (memory fragmented, not root).
reserve_hugepages() {
	local want=$1 sys=/sys/kernel/mm/hugepages/hugepages-2048kB
	local mnt=/dev/hugepages total free
	[ -d "$sys" ] || { echo "reserve_hugepages: no 2 MB hugepage support ($sys missing)" >&2; return 1; }
	total=$(cat "$sys/nr_hugepages")
	free=$(cat "$sys/free_hugepages")
	if [ "$free" -lt "$want" ]; then
		echo $((total + want - free)) > "$sys/nr_hugepages" 2>/dev/null || true
		free=$(cat "$sys/free_hugepages")
		if [ "$free" -lt "$want" ]; then
			echo "reserve_hugepages: wanted $want free 2 MB hugepages, the kernel gave $free (nr_hugepages $(cat "$sys/nr_hugepages"))" >&2
			return 1
		fi
	fi
	if ! grep -qs " $mnt hugetlbfs " /proc/mounts; then
		mkdir -p "$mnt"
		mount -t hugetlbfs -o pagesize=2M nodev "$mnt" || {
			echo "reserve_hugepages: cannot mount hugetlbfs at $mnt" >&2
			return 1
		}
	fi
	echo "$mnt"
}
