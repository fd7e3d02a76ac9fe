#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# install-staged.sh BUILD_DIR [STAGE_DIR]
#
# "meson install" of BUILD_DIR into a DESTDIR stage (nothing outside the
# stage is touched), then check what landed where: the plugin in DPDK's
# plugin directory (RTE_EAL_PMD_PATH), the public header, and the
# libdpdk-turbomem pkg-config file; and build and run a small application
# against the staged pkg-config file that calls the public API (stats) on
# a turbomem pool, with no -d. scripts/install-check.sh does the real
# install.
set -euo pipefail

build=$(realpath "$1")
stage=${2:-$build/install-stage}
top=$(cd "$(dirname "$0")/.." && pwd)
meson=${MESON:-/usr/bin/meson}
[ -x "$meson" ] || meson=meson

log() { printf 'install-staged: %s\n' "$*"; }
fail() { log "FAIL: $*"; exit 1; }

rm -rf "$stage"
DESTDIR=$stage "$meson" install -C "$build" --no-rebuild --quiet

pmd_dir=$(printf '#include <rte_build_config.h>\nRTE_EAL_PMD_PATH\n' |
	cc -E -P $(pkg-config --cflags libdpdk) - | tail -1 | tr -d '"')
[ -n "$pmd_dir" ] || fail "cannot read RTE_EAL_PMD_PATH"
plugin=$stage$pmd_dir/librte_mempool_turbomem.so
pc=$(find "$stage" -name libdpdk-turbomem.pc)
header=$(find "$stage" -name rte_pmd_turbomem.h)
[ -f "$plugin" ] || fail "plugin not in the plugin directory $pmd_dir"
[ -n "$pc" ] || fail "no libdpdk-turbomem.pc"
[ -n "$header" ] || fail "no rte_pmd_turbomem.h"
log "plugin: ${plugin#"$stage"}"
log "header: ${header#"$stage"}"
log "pkg-config: ${pc#"$stage"}"
case "${pc#"$stage"}" in
*/pkgconfig/libdpdk-turbomem.pc) ;;
*) fail "pkg-config file outside a pkgconfig directory" ;;
esac
nm -D --defined-only "$plugin" | grep -q ' rte_pmd_turbomem_stats_get@@EXPERIMENTAL$' ||
	fail "plugin does not export rte_pmd_turbomem_stats_get"

# The .pc names absolute install paths; point them into the stage.
app=$stage/app
mkdir -p "$app"
sed -e "s|^prefix=|prefix=$stage|" -e "s|-L/|-L$stage/|" \
	-e "s|rpath,/|rpath,$stage/|" "$pc" > "$app/libdpdk-turbomem.pc"
cat > "$app/app.c" <<'C'
/* Uses turbomem through its public API only, linked via pkg-config. */
#include <stdio.h>
#include <rte_eal.h>
#include <rte_mbuf.h>
#include <rte_pmd_turbomem.h>

int
main(int argc, char **argv)
{
	struct rte_pmd_turbomem_stats st;
	struct rte_mempool *mp;

	if (rte_eal_init(argc, argv) < 0)
		return 1;
	mp = rte_pktmbuf_pool_create_by_ops("app", 511, 0, 0, 2048,
			SOCKET_ID_ANY, RTE_PMD_TURBOMEM_OPS_NAME);
	if (mp == NULL)
		return 2;
	rte_pktmbuf_free(rte_pktmbuf_alloc(mp));
	if (rte_pmd_turbomem_stats_get(mp, &st) != 0)
		return 3;
	printf("app: pool on %s, get_calls %llu put_calls %llu\n",
		rte_mempool_get_ops(mp->ops_index)->name,
		(unsigned long long)st.get_calls,
		(unsigned long long)st.put_calls);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return st.get_calls == 1 && st.put_calls == 1 ? 0 : 4;
}
C
export PKG_CONFIG_PATH=$app
# shellcheck disable=SC2046
cc -Wall -Werror -DALLOW_EXPERIMENTAL_API -o "$app/app" "$app/app.c" \
	$(pkg-config --cflags --libs libdpdk-turbomem)
ldd "$app/app" | grep -q "$stage.*librte_mempool_turbomem.so" ||
	fail "app does not link the staged plugin"
out=$("$app/app" --no-huge -m 128 --no-pci -l 0 \
	--file-prefix="tm-install-$(printf '%s' "$build" | cksum | cut -d' ' -f1)" 2>&1) ||
	{ printf '%s\n' "$out"; fail "app failed"; }
printf '%s\n' "$out" | grep '^app:'
log "OK"
