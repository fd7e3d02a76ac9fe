# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Sphinx configuration of the turbomem documentation, laid out like DPDK's
# doc/guides so that the driver guide can move into a DPDK tree as is.
# Build: sphinx-build -W -b html doc build/doc (or the "docs" meson test).

import os
import re

project = 'turbomem'
author = 'The turbomem authors'
copyright = '2026, ' + author

_top = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
with open(os.path.join(_top, 'meson.build')) as f:
    _m = re.search(r"version:\s*'([^']+)'", f.read())
version = release = _m.group(1) if _m else 'unknown'

master_doc = 'index'
exclude_patterns = ['_build']
highlight_language = 'none'
html_theme = 'alabaster'
html_show_sourcelink = False
