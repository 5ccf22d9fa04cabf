"""The settings an index opens with: the environment's, then what the index itself was built with.

`EdgeRAG` takes a caller's `Settings`, lets the environment fill what the caller left at its
default (`from_environment`), then lets the index's manifest fill the stored settings and the
embedder (`adopt_manifest`), so an index is always read the way it was written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..settings import LEGACY_STORED, STORED_FIELDS, Settings
from .errors import IndexUnusableError
from .index import backend_of


def from_environment(settings: Settings) -> Settings:
    """``EDGERAG_ANSWER_SECONDS`` (seconds, or ``none``) for an ``answer_seconds`` left at its default."""
    raw = os.environ.get("EDGERAG_ANSWER_SECONDS", "").strip()
    if not raw or settings.answer_seconds != Settings().answer_seconds:
        return settings
    if raw.lower() in ("none", "off", "0"):
        return settings.replace(answer_seconds=None)
    try:
        return settings.replace(answer_seconds=float(raw))
    except ValueError:
        raise ValueError(f"EDGERAG_ANSWER_SECONDS must be a number of seconds or 'none', got {raw!r}") from None


def adopt_manifest(settings: Settings, manifest: Path) -> Settings:
    """An existing index remembers how it was built: stored settings (and the embedder) that
    the caller left at their defaults take the index's values; explicit different values stay
    and are refused when the index opens."""
    if not manifest.exists():
        return settings
    try:
        data = json.loads(manifest.read_text())
    except (OSError, ValueError) as e:
        raise IndexUnusableError(f"{manifest} is unreadable ({e}); is {manifest.parent} an edgerag index?") from e
    defaults = Settings()
    stored = {**LEGACY_STORED, **(data.get("settings") or {})}
    built = data.get("embedder") or {}
    if built.get("spec"):
        stored["embedder"] = built["spec"]
    stored["embed_backend"] = backend_of(str(built.get("id", "")))
    adopt = {
        k: v
        for k, v in stored.items()
        if k in (*STORED_FIELDS, "embedder", "embed_backend") and getattr(settings, k) == getattr(defaults, k)
    }
    return settings.replace(**adopt)
