"""Readers: files and folders in, `Document`s out; bad input reported by name, never fatal.

    readers.py  `iter_documents`: files and folders, text and jsonl here, the rest by format
    blocks.py   `Block`s → `Document`s with page and section marks; `Skipped`, `content_id`
    files.py    what the index remembers of each file (edited files replace their old version)
    sniff.py    what a file's first bytes say it is
    markdown.py Markdown pipe tables as one line a row with its header (text/rows.py)
    pdf.py      PDF, page by page (pypdfium2)
    pdf_tables.py  tables on a PDF page, from where PDFium puts each character, as row lines
    docx.py     Word, headings as the section path, tables as row lines
    html.py     HTML's main text under its heading path, tables as row lines
    epub.py     EPUB chapters, through the HTML reader
    archive.py  opening DOCX and EPUB zips without trusting them
    image.py    image files, by OCR
    ocr.py      offline OCR for scanned pages and images

Imports go one way: readers.py imports the format modules, and they import blocks.py.
"""

from .files import FileDone, FileState, Unchanged
from .readers import SUPPORTED_SUFFIXES, Skipped, iter_documents

__all__ = ["SUPPORTED_SUFFIXES", "FileDone", "FileState", "Skipped", "Unchanged", "iter_documents"]
