"""Progress bars for long work: on a terminal by default, silent in pipes and tests."""

from __future__ import annotations

import sys

from tqdm.auto import tqdm


def bar(total: int | None = None, desc: str = "", unit: str = "it", enabled: bool | None = None) -> tqdm:
    """A tqdm bar on stderr; ``enabled=None`` shows it only when stderr is a terminal."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    return tqdm(total=total, desc=desc, unit=unit, disable=not enabled, file=sys.stderr, dynamic_ncols=True)
