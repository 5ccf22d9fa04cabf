"""Write the office benchmark's documents (benchmarks/office.py) into a folder.

    python benchmarks/office/make_docs.py OUT_DIR

The text sources live in ``sources/`` beside this file and are the only thing committed:

* ``NAME.md``, ``NAME.html``, ``NAME.txt`` are copied as they are;
* ``NAME.docx.md`` becomes ``NAME.docx`` (python-docx, through tests/docmaker.py `make_docx`):
  ``#``/``##`` lines are headings, blank-line-separated paragraphs are paragraphs, and a
  Markdown pipe table becomes a real Word table;
* ``NAME.pdf.txt`` becomes ``NAME.pdf`` (pypdfium2, tests/docmaker.py `make_pdf`), one page per
  part between lines ``----- page -----``; text in Helvetica, so Latin-1 only.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "sources"
PAGE_BREAK = "----- page -----"

sys.path.insert(0, str(HERE.parent.parent))  # the repository root, for tests/docmaker.py


def output_name(source: Path) -> str:
    """The file a source becomes: ``a.docx.md`` → ``a.docx``, ``a.pdf.txt`` → ``a.pdf``, else itself."""
    for inner in (".docx", ".pdf"):
        if source.name.endswith(inner + source.suffix) and source.suffix in (".md", ".txt"):
            return source.name[: -len(source.suffix)]
    return source.name


def docx_items(text: str) -> list[tuple]:
    """Markdown-ish text as tests/docmaker.py `make_docx` items: headings, paragraphs, tables."""
    items: list[tuple] = []
    para: list[str] = []
    table: list[list[str]] = []

    def flush() -> None:
        if para:
            items.append(("p", " ".join(para)))
            para.clear()
        if table:
            items.append(("t", [row[:] for row in table]))
            table.clear()

    for line in text.splitlines():
        s = line.strip()
        if s.startswith("|"):
            if para:
                items.append(("p", " ".join(para)))
                para.clear()
            cells = [c.strip() for c in s.strip("|").split("|")]
            if not all(set(c) <= set("-: ") for c in cells):  # the |---| separator row
                table.append(cells)
        elif s.startswith("#"):
            flush()
            level = len(s) - len(s.lstrip("#"))
            items.append(("h", level, s.lstrip("#").strip()))
        elif not s:
            flush()
        else:
            if table:
                flush()
            para.append(s)
    flush()
    return items


def build(out_dir: str | Path, sources: Path = SOURCES) -> list[Path]:
    """Write every document of ``sources`` into ``out_dir`` (created); returns the files written
    (benchmarks/reports.py writes its own sources with it)."""
    from tests.docmaker import make_docx, make_pdf

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for src in sorted(Path(sources).iterdir()):
        if not src.is_file() or src.name.startswith("."):
            continue
        dest = out / output_name(src)
        text = src.read_text(encoding="utf-8")
        if dest.suffix == ".docx":
            make_docx(dest, docx_items(text))
        elif dest.suffix == ".pdf":
            make_pdf(dest, [page.strip("\n") for page in text.split(PAGE_BREAK)])
        else:
            shutil.copyfile(src, dest)
        written.append(dest)
    return written


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    for path in build(sys.argv[1]):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
