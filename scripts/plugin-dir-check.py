#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
"""plugin-dir-check.py PLUGIN_DIR [PLUGIN_FILE]

Run by "meson install" (meson.add_install_script) after the plugin is
installed into PLUGIN_DIR (under $DESTDIR when set): count the mempool ops
the other plugins of that directory register, the way EAL would when it
reads the directory, and warn when they leave no slot of the ops table
(RTE_MEMPOOL_MAX_OPS_IDX = 16) for turbomem.

Counting: every *.so / *.so.N of the directory except PLUGIN_FILE is
dlopen()ed in this (separate) process, in the directory's order (the
files EAL loads: *.so and *.so.<ABI_VERSION>, e.g. .so.26.2); DPDK
drivers register their ops from constructors, without EAL, and
rte_mempool_ops_table.num_ops is read after each. A library that cannot be
loaded is skipped and named. Never fails the install: exit status 0.
"""

import ctypes
import os
import re
import subprocess
import sys

MAX_OPS = 16  # RTE_MEMPOOL_MAX_OPS_IDX, the same in every DPDK release


class DlInfo(ctypes.Structure):
    _fields_ = [('dli_fname', ctypes.c_char_p), ('dli_fbase', ctypes.c_void_p),
                ('dli_sname', ctypes.c_char_p), ('dli_saddr', ctypes.c_void_p)]


def count(plugin_dir, skip):
    """Print 'op NAME LIBRARY' per registered op, in order, then 'total N'."""
    seen = set()
    for name in os.listdir(plugin_dir):
        path = os.path.join(plugin_dir, name)
        real = os.path.realpath(path)
        # EAL's filter: *.so and *.so.<ABI_VERSION> (major.minor)
        if (not re.search(r'\.so(\.\d+\.\d+)?$', name) or real in seen or
                not os.path.isfile(real) or
                (skip and os.path.basename(real).startswith(skip))):
            continue
        seen.add(real)
        try:
            ctypes.CDLL(real, mode=ctypes.RTLD_GLOBAL)
        except OSError as e:
            print('skip %s: %s' % (name, e))
    try:
        base = ctypes.addressof(ctypes.c_uint32.in_dll(
            ctypes.CDLL(None), 'rte_mempool_ops_table'))
    except ValueError:
        print('total 0')  # no DPDK mempool library was loaded
        return
    # struct rte_mempool_ops_table { rte_spinlock_t sl; uint32_t num_ops;
    # struct rte_mempool_ops ops[16] (cache aligned: at 64, 128 bytes
    # each: name[32], alloc, free, enqueue, ...) }, DPDK 22.11 to 26.07.
    n = ctypes.c_uint32.from_address(base + 4).value
    dladdr = ctypes.CDLL(None).dladdr
    dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(DlInfo)]
    for i in range(min(n, MAX_OPS)):
        op = base + 64 + 128 * i
        info = DlInfo()
        enq = ctypes.c_void_p.from_address(op + 32 + 2 * 8).value
        lib = os.path.basename(info.dli_fname.decode()) \
            if dladdr(enq, ctypes.byref(info)) and info.dli_fname else '?'
        print('op %s %s' % (ctypes.string_at(op, 32).split(b'\0')[0].decode(),
                            lib))
    print('total %d' % n)


def say(msg):
    """Print where the user of "meson install" sees it.

    meson (1.0) hides the output of an install script that succeeds: it
    gives it pipes. Then write to meson's own stderr instead.
    """
    try:
        mine = os.fstat(1)
        parent = os.stat('/proc/%d/fd/1' % os.getppid())
        inherited = (mine.st_dev, mine.st_ino) == (parent.st_dev, parent.st_ino)
    except OSError:
        inherited = True
    if not inherited:
        try:
            with open('/proc/%d/fd/2' % os.getppid(), 'w') as f:
                f.write(msg + '\n')
            return
        except OSError:
            pass
    print(msg, flush=True)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == '--count':
        count(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else '')
        return 0
    plugin_dir = sys.argv[1]
    plugin = sys.argv[2] if len(sys.argv) > 2 else 'librte_mempool_turbomem.so'
    where = os.environ.get('DESTDIR', '') + plugin_dir if \
        os.environ.get('DESTDIR') else plugin_dir
    if not os.path.isdir(where):
        return 0
    stem = re.sub(r'\.so.*$', '', os.path.basename(plugin))
    r = subprocess.run([sys.executable, __file__, '--count', where, stem],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=120, check=False)
    lines = r.stdout.splitlines()
    total = [l for l in lines if l.startswith('total ')]
    if r.returncode != 0 or not total:
        say('turbomem: WARNING: could not count the mempool ops of %s '
              '(status %d): %s' % (where, r.returncode, ' | '.join(lines[-3:])))
        return 0
    n = int(total[-1].split()[1])
    ops = [l.split()[1:3] for l in lines if l.startswith('op ')]
    libs = {}
    for op, lib in ops:
        libs.setdefault(lib, []).append(op)
    if n + 1 <= MAX_OPS:
        say('turbomem: %s: its other plugins register %d mempool ops; '
              'with turbomem %d of %d ops table slots are used' %
              (plugin_dir, n, n + 1, MAX_OPS))
        return 0
    last = '"%s" of %s' % tuple(ops[-1]) if ops else '?'
    say('turbomem: WARNING: the plugin directory %s already fills the mempool '
          'ops table (%d of RTE_MEMPOOL_MAX_OPS_IDX=%d: %s): turbomem '
          'installed there may not get a slot. Load it with -d %s (EAL loads '
          '-d plugins first; the directory\'s last mempool driver, %s here, '
          'then loses its slot), or remove a mempool driver you do not use '
          'from %s.' % (plugin_dir, n, MAX_OPS,
                        ', '.join('%s %s' % (l, '/'.join(o))
                                  for l, o in libs.items()),
                        os.path.join(plugin_dir, os.path.basename(plugin)),
                        last, plugin_dir))
    return 0


if __name__ == '__main__':
    sys.exit(main())
