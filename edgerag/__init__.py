"""edgerag: offline Graph-RAG on one machine with a local GGUF model."""

from . import offline  # noqa: F401  (must come before any hub library is imported)
from .api import EdgeRAG
from .settings import Settings
from .types import Context, Document, InsertReport, Unit

__all__ = ["Context", "Document", "EdgeRAG", "InsertReport", "Settings", "Unit"]
__version__ = "0.1.0"
