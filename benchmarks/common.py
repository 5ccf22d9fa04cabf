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
    from edgerag.llm.cpu import cpu_model, llama_features

    machine = {"cpus": os.cpu_count(), "platform": platform.platform(), "cpu": cpu_model(), "cpu_features": llama_features()}
    result = {**result, "machine": machine, "when": time.strftime("%Y-%m-%d %H:%M")}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2, default=str))
    print(f"wrote {path}")


def extraction_tokens(rag, chunk_ids: list[str]) -> dict[str, int]:
    """KG extraction tokens of ``chunk_ids`` as recorded with each stored extraction (whoever
    paid for it), and how many of the output tokens were fresh model output."""
    recs = [r for r in rag.index.get_many("extractions", chunk_ids) if r]
    return {
        "chunks": len(recs),
        "input": sum(r.get("prompt_tokens", 0) for r in recs),
        "output": sum(r.get("output_tokens", 0) for r in recs),
        "fresh_output": sum(r.get("output_tokens", 0) for r in recs if not r.get("cached")),
    }
