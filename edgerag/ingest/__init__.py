"""Readers: files and folders in, `Document`s out; bad input reported by name, never fatal."""

from .files import FileDone, FileState, Unchanged
from .readers import SUPPORTED_SUFFIXES, Skipped, iter_documents

__all__ = ["SUPPORTED_SUFFIXES", "FileDone", "FileState", "Skipped", "Unchanged", "iter_documents"]
