"""Offline OCR: pages with no text layer, and image files, become text (issue #34).

Engines (``EDGERAG_OCR=rapidocr|tesseract|off`` picks one; ``auto``, the default, takes the
first installed, in this order):

* **RapidOCR** (``rapidocr-onnxruntime`` 1.4.4, Apache-2.0; ``pip install 'edgerag[ocr]'``):
  PaddleOCR's PP-OCRv4 detection and recognition models as ONNX files *inside the wheel*,
  run by ONNX Runtime on the CPU. Nothing is fetched at run time and nothing else is
  installed, so every machine with the extra reads a page the same way. Its recogniser was
  trained mostly on Chinese: on English lines it drops some spaces between words and now and
  then a whole line (87–98 % of characters right on real prose, about 3 s a page on 2 cores).
* **Tesseract** 5 through ``pytesseract`` (in the extra too), where a user has installed the
  ``tesseract`` program and its English data (``apt install tesseract-ocr``): more accurate on
  clean English prose (99.7 %, about 2 s a page), but its global threshold loses text printed
  on a grey background inside a white page, which RapidOCR reads. ``EDGERAG_OCR=tesseract``.

`recognise` returns the page's lines in reading order (top to bottom, a line's boxes left to
right, a blank line where the gap is wider than a line) and a **confidence**: the engine's
per-line scores weighted by characters. A page below `MIN_CONFIDENCE`, or with fewer than
`MIN_CHARS` characters recognised, is named and left out (a page of noise is not indexed as
garbage). Results are remembered per page image (sha1 of its pixels, engine) under
``~/.cache/edgerag/ocr``, so a killed `edgerag index` run does not OCR finished pages again.
docs/benchmarks.md ("OCR") has the measured speed and accuracy of both engines.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass
from functools import lru_cache

MIN_CONFIDENCE = 0.6
"""Pages whose character-weighted recognition confidence is below this are left out."""
MIN_CHARS = 8
"""Pages with fewer recognised characters than this are left out (specks, a stamp)."""
RENDER_SCALE = 2.0
"""A PDF page is rendered at 72 × this dpi (144): enough for 10-point text, and the
detector downsizes larger images anyway."""
INSTALL = "pip install 'edgerag[ocr]'"


@dataclass
class OcrPage:
    text: str
    confidence: float
    """Character-weighted mean of the engine's line scores, 0–1."""
    lines: int
    seconds: float
    engine: str
    cached: bool = False

    @property
    def readable(self) -> bool:
        return self.confidence >= MIN_CONFIDENCE and len(self.text.replace(" ", "").replace("\n", "")) >= MIN_CHARS


class OcrUnavailableError(RuntimeError):
    pass


@lru_cache(maxsize=1)
def engine_name() -> str | None:
    """The OCR engine this process uses, or None when none is installed (or ``EDGERAG_OCR=off``)."""
    want = os.environ.get("EDGERAG_OCR", "auto").lower()
    if want in ("off", "0", "no"):
        return None
    if want in ("auto", "rapidocr"):
        try:
            import rapidocr_onnxruntime  # noqa: F401

            return "rapidocr"
        except ImportError:
            if want == "rapidocr":
                return None
    if want in ("auto", "tesseract"):
        import shutil

        try:
            import pytesseract  # noqa: F401
        except ImportError:
            return None
        return "tesseract" if shutil.which("tesseract") else None
    return None


@lru_cache(maxsize=1)
def _rapidocr():
    from rapidocr_onnxruntime import RapidOCR

    return RapidOCR()


def _lines_rapidocr(image) -> list[tuple[float, float, float, str, float]]:
    """(top, bottom, left, text, score) of each recognised line."""
    import numpy as np

    result, _ = _rapidocr()(np.asarray(image.convert("RGB")))
    out = []
    for box, text, score in result or []:
        ys, xs = [p[1] for p in box], [p[0] for p in box]
        out.append((min(ys), max(ys), min(xs), text, float(score)))
    return out


def _lines_tesseract(image) -> list[tuple[float, float, float, str, float]]:
    import pytesseract

    d = pytesseract.image_to_data(image, output_type=pytesseract.Output.DICT)
    lines: dict[tuple, list[int]] = {}
    for i, word in enumerate(d["text"]):
        if word.strip() and float(d["conf"][i]) >= 0:
            lines.setdefault((d["block_num"][i], d["par_num"][i], d["line_num"][i]), []).append(i)
    out = []
    for idx in lines.values():
        top = min(d["top"][i] for i in idx)
        bottom = max(d["top"][i] + d["height"][i] for i in idx)
        text = " ".join(d["text"][i] for i in idx)
        score = sum(float(d["conf"][i]) * len(d["text"][i]) for i in idx) / max(1, sum(len(d["text"][i]) for i in idx)) / 100
        out.append((top, bottom, min(d["left"][i] for i in idx), text, score))
    return out


def reading_order(lines: list[tuple[float, float, float, str, float]]) -> str:
    """Lines top to bottom; boxes whose vertical middles lie within half a line of each other
    are one line, left to right; a gap wider than 1.2 lines starts a paragraph."""
    if not lines:
        return ""
    lines = sorted(lines, key=lambda x: ((x[0] + x[1]) / 2, x[2]))
    height = sorted(b - t for t, b, *_ in lines)[len(lines) // 2] or 1.0
    rows: list[list[tuple]] = []
    for ln in lines:
        mid = (ln[0] + ln[1]) / 2
        if rows and abs(mid - (rows[-1][0][0] + rows[-1][0][1]) / 2) <= height / 2:
            rows[-1].append(ln)
        else:
            rows.append([ln])
    out, last_bottom = [], None
    for row in rows:
        row.sort(key=lambda x: x[2])
        top = min(x[0] for x in row)
        if last_bottom is not None and top - last_bottom > 1.2 * height:
            out.append("")
        out.append(" ".join(x[3].strip() for x in row))
        last_bottom = max(x[1] for x in row)
    return "\n".join(out).strip()


def recognise(image) -> OcrPage:
    """OCR one page image (a PIL image); remembered per pixels and engine."""
    name = engine_name()
    if name is None:
        raise OcrUnavailableError(f"no OCR engine is installed: {INSTALL}")
    rgb = image.convert("RGB")
    key = hashlib.sha1(rgb.tobytes() + f"{rgb.size}{name}".encode()).hexdigest()
    from ..llm.models import cache_dir

    memo = cache_dir() / "ocr" / f"{key}.json"
    try:
        page = OcrPage(**json.loads(memo.read_text()))
        page.cached = True
        return page
    except (OSError, ValueError, TypeError):
        pass
    t0 = time.perf_counter()
    lines = _lines_rapidocr(rgb) if name == "rapidocr" else _lines_tesseract(rgb)
    chars = sum(len(x[3]) for x in lines)
    confidence = sum(x[4] * len(x[3]) for x in lines) / chars if chars else 0.0
    page = OcrPage(reading_order(lines), round(confidence, 4), len(lines), time.perf_counter() - t0, name)
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        tmp = memo.with_name(f"{memo.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(asdict(page) | {"cached": False}))
        os.replace(tmp, memo)
    except OSError:
        pass
    return page
