"""What every benchmark script shares: where and how results are written."""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path
from typing import Any


def write_result(path: str | Path, result: dict[str, Any]) -> None:
    """Write ``result`` as JSON with the machine and time it was measured on, and say where."""
    result = {**result, "machine": {"cpus": os.cpu_count(), "platform": platform.platform()}, "when": time.strftime("%Y-%m-%d %H:%M")}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2, default=str))
    print(f"wrote {path}")
