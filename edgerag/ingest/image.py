"""Image files → documents by OCR (ocr.py): a scanned letter as a JPEG, a fax as a TIFF.

Every frame of the file (a multi-page TIFF has several) is one page: recognised, and kept as
a `Block` with its page number and OCR confidence when the engine reads it with confidence;
frames it cannot read are named and left out. Without an OCR engine the file is skipped with
the line to install one. Pillow opens the file (PNG, JPEG, TIFF; Pillow comes with
sentence-transformers and matplotlib), lazily, one frame at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from . import ocr
from .blocks import Block, Skipped, pack

IMAGE_SUFFIXES = {".png": "image", ".jpg": "image", ".jpeg": "image", ".tif": "image", ".tiff": "image"}


def read_image(path: Path, part_chars: int) -> Iterator:
    from PIL import Image, ImageSequence, UnidentifiedImageError

    if ocr.engine_name() is None:
        yield Skipped(str(path), f"an image: {ocr.INSTALL} to read it by OCR")
        return
    try:
        img = Image.open(path)
    except (UnidentifiedImageError, OSError) as e:
        yield Skipped(str(path), f"not an image Pillow can open ({e}): damaged, or a wrong extension?")
        return
    unclear: list[int] = []
    frames = getattr(img, "n_frames", 1)
    with img:

        def blocks() -> Iterator[Block]:
            for n, frame in enumerate(ImageSequence.Iterator(img), 1):
                read = ocr.recognise(frame)
                if read.readable:
                    yield Block(read.text, page=n, ocr=read.confidence, ocr_seconds=0 if read.cached else read.seconds)
                else:
                    unclear.append(n)

        found = 0
        for doc in pack(path, "image", blocks(), path.stem, part_chars, frames):
            found += 1
            yield doc
    if not found:
        yield Skipped(str(path), f"OCR found no confident text in it (confidence below {ocr.MIN_CONFIDENCE}, or blank)")
    elif unclear:
        yield Skipped(
            f"{path} p. {', '.join(map(str, unclear))}",
            f"OCR found no confident text on {len(unclear)} of {frames} pages: left out; the other pages are indexed",
            pages=tuple(unclear),
            what="OCR: no confident text",
        )
