"""Small PDF, DOCX, HTML and EPUB files made on the spot, for the reader tests and the
ingest benchmark: nothing is downloaded and no binary fixture is committed.

PDFs are drawn with pypdfium2 (PDFium's text objects, standard Helvetica font), encrypted
with pypdf's RC4-128 (pure Python, no `cryptography` needed); DOCX files are written by
python-docx; an EPUB is a zip written with zipfile (mimetype, container.xml, OPF, nav, one
XHTML file a chapter).
"""

from __future__ import annotations

import ctypes
import textwrap
import zipfile
from pathlib import Path


def make_pdf(path: Path, pages: list[str], *, image_pages: tuple[int, ...] = (), width: int = 95, font: Path | None = None) -> Path:
    """A PDF with one page per string (each line of it wrapped at ``width`` characters; a run
    of lines starting with "|" is a table, "| Project | Budget |", its cells drawn in columns
    as separate text objects); the 1-based pages in ``image_pages`` hold only an image (a "scanned" page, no text). Text is
    in the standard Helvetica (Latin-1 only: "ę" comes back as "ÿ") unless ``font`` names a
    TrueType file to embed (DejaVu Sans covers what Wikipedia passages hold)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument.new()
    ttf = None
    if font is not None:
        data = Path(font).read_bytes()
        font_buf = ctypes.create_string_buffer(data, len(data))
        ttf = raw.FPDFText_LoadFont(pdf.raw, ctypes.cast(font_buf, ctypes.POINTER(ctypes.c_uint8)), len(data), raw.FPDF_FONT_TRUETYPE, 1)
    for n, text in enumerate(pages, 1):
        page = pdf.new_page(612, 792)
        if n in image_pages:
            bitmap = pdfium.PdfBitmap.new_native(40, 40, raw.FPDFBitmap_BGR)
            bitmap.fill_rect((90, 90, 90, 255), 0, 0, 40, 40)
            img = pdfium.PdfImage.new(pdf)
            img.set_bitmap(bitmap)
            img.set_matrix(pdfium.PdfMatrix().scale(400, 400).translate(100, 200))
            page.insert_obj(img)
        else:

            def put(piece: str, x: float, y: float, page=page) -> None:
                obj = raw.FPDFPageObj_CreateTextObj(pdf.raw, ttf, 10.0) if ttf else raw.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica", 10.0)
                ws = (piece + "\x00").encode("utf-16-le")
                buf = ctypes.create_string_buffer(ws, len(ws))
                raw.FPDFText_SetText(obj, ctypes.cast(buf, ctypes.POINTER(raw.FPDF_WCHAR)))
                raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, x, y)
                raw.FPDFPage_InsertObject(page.raw, obj)

            y = 740.0
            lines = text.split("\n")
            k = 0
            while k < len(lines):
                if lines[k].startswith("|"):  # a table: its rows' cells drawn in columns
                    end = k
                    while end < len(lines) and lines[end].startswith("|"):
                        end += 1
                    rows = [[c.strip() for c in row.strip().strip("|").split("|")] for row in lines[k:end]]
                    widths = [max(len(r[c]) if c < len(r) else 0 for r in rows) * 5.6 + 24 for c in range(max(map(len, rows)))]
                    for row in rows:
                        for c, cell in enumerate(row):
                            if cell:
                                put(cell, 50 + sum(widths[:c]), y)
                        y -= 16
                    k = end
                    continue
                for line in textwrap.wrap(lines[k], width) or [""]:
                    put(line, 50, y)
                    y -= 13
                k += 1
        page.gen_content()
        page.close()
    pdf.save(str(path))
    if ttf:
        raw.FPDFFont_Close(ttf)
    pdf.close()
    return path


def make_placed_pdf(path: Path, runs: list[tuple[float, float, str | list]]) -> Path:
    """A one-page PDF written by hand: each run is drawn at (x, y) in Helvetica 10 pt, a string
    with ``Tj`` or a list with ``TJ`` (strings and kerning numbers: ``["Room", -4000, "Price"]``
    is one text object with wide gaps), in the order given (a table drawn column by column)."""

    def lit(t: str) -> str:
        return "(" + t.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"

    ops = ["BT /F1 10 Tf"]
    for x, y, run in runs:
        shown = f"[{' '.join(lit(p) if isinstance(p, str) else str(p) for p in run)}] TJ" if isinstance(run, list) else f"{lit(run)} Tj"
        ops.append(f"1 0 0 1 {x:.2f} {y:.2f} Tm {shown}")
    stream = "\n".join([*ops, "ET"]).encode("latin-1")
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = b"%PDF-1.4\n", []
    for i, obj in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    path.write_bytes(out)
    return path


def encrypt_pdf(src: Path, dst: Path, password: str = "secret") -> Path:
    import pypdf

    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(str(src)))
    writer.encrypt(password, algorithm="RC4-128")
    writer.write(str(dst))
    return dst


def make_docx(path: Path, items: list[tuple]) -> Path:
    """``items``: ("h", level, text) headings, ("p", text) paragraphs, ("t", [[cell, …], …]) tables."""
    import docx

    d = docx.Document()
    for item in items:
        if item[0] == "h":
            d.add_heading(item[2], level=item[1])
        elif item[0] == "p":
            d.add_paragraph(item[1])
        else:
            rows = item[1]
            table = d.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
    d.save(str(path))
    return path


def html_page(title: str, body: str, *, chrome: bool = True) -> str:
    """A saved-page-like document: ``body`` inside <main>, with navigation, a cookie
    banner, a sidebar, a footer and scripts around it when ``chrome``."""
    head = f"<head><meta charset='utf-8'><title>{title}</title><script>var tracking = 'do not index me';</script><style>p {{color: red}}</style></head>"
    if not chrome:
        return f"<!DOCTYPE html><html>{head}<body>{body}</body></html>"
    return f"""<!DOCTYPE html><html>{head}<body>
<header class="site-header"><a href="/">Home</a> <a href="/blog">Blog</a> Site-wide header text</header>
<nav><ul><li><a href="/a">Menu entry alpha</a></li><li><a href="/b">Menu entry beta</a></li></ul></nav>
<div class="cookie-banner">We use cookies to improve your experience. Accept all cookies?</div>
<main>{body}</main>
<aside class="sidebar"><h3>Related posts</h3><p>Sidebar teaser text about something else.</p></aside>
<footer>Copyright 2026 Example Corp. All rights reserved. Privacy policy.</footer>
<script>document.write('script text must not be indexed');</script>
</body></html>"""


def make_epub(path: Path, title: str, chapters: list[tuple[str, str]], *, nav: bool = True) -> Path:
    """An EPUB 3 with one XHTML file per (chapter title, body HTML); ``nav=False`` leaves
    out the table of contents (chapters are then named by their first heading)."""
    manifest = "".join(f'<item id="c{i}" href="text/ch{i}.xhtml" media-type="application/xhtml+xml"/>' for i in range(len(chapters)))
    if nav:
        manifest += '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
    spine = "".join(f'<itemref idref="c{i}"/>' for i in range(len(chapters)))
    opf = f"""<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">test-book</dc:identifier><dc:title>{title}</dc:title><dc:language>en</dc:language></metadata>
<manifest>{manifest}</manifest><spine>{spine}</spine></package>"""
    links = "".join(f'<li><a href="text/ch{i}.xhtml">{t}</a></li>' for i, (t, _) in enumerate(chapters))
    navdoc = f'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol>{links}</ol></nav></body></html>'
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
        z.writestr(
            "META-INF/container.xml",
            '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
            '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
        )
        z.writestr("OEBPS/content.opf", opf)
        if nav:
            z.writestr("OEBPS/nav.xhtml", navdoc)
        for i, (_, body) in enumerate(chapters):
            z.writestr(
                f"OEBPS/text/ch{i}.xhtml",
                f'<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>{title}</title></head><body>{body}</body></html>',
            )
    return path


def zip_bomb(path: Path, member: str = "word/document.xml", mib: int = 8) -> Path:
    """A zip whose one member expands to ``mib`` MiB of zeros from a few KiB."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr(member, b"\0" * (mib << 20))
    return path


FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def text_image(lines: list[str], *, size: int = 26, angle: float = 0.0, ink: int = 0, paper: int = 255, width: int = 1224):
    """A scanned page as a greyscale PIL image: ``lines`` drawn at ``size`` px (DejaVu Sans,
    else Pillow's own font), turned by ``angle`` degrees, ``ink`` on ``paper`` (0–255: a
    low-contrast scan draws 110 on 170)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(FONT), size) if FONT.exists() else ImageFont.load_default(size=size)
    height = max(400, 120 + int(size * 1.6) * len(lines))
    img = Image.new("L", (width, height), paper)
    draw = ImageDraw.Draw(img)
    for n, line in enumerate(lines):
        draw.text((80, 80 + int(size * 1.6) * n), line, fill=ink, font=font)
    return img.rotate(angle, expand=True, fillcolor=paper) if angle else img


def noise_image(seed: int = 0, width: int = 800, height: int = 600):
    """A page of random grey specks: a scan of nothing."""
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(seed)
    return Image.fromarray(rng.integers(0, 256, (height, width), dtype=np.uint8), "L")


def make_scanned_pdf(path: Path, images: list, *, text_pages: dict[int, str] | None = None) -> Path:
    """An image-only PDF: one page per PIL image, filling a US-letter page; pages named in
    ``text_pages`` (1-based) hold that text instead, as a text layer."""
    import pypdfium2 as pdfium

    tmp = path.with_suffix(".text.pdf")
    text_pages = text_pages or {}
    make_pdf(tmp, [text_pages.get(n, "") for n in range(1, len(images) + 1)])
    pdf = pdfium.PdfDocument(str(tmp))
    for n, image in enumerate(images, 1):
        if n in text_pages or image is None:
            continue
        page = pdf[n - 1]
        img = pdfium.PdfImage.new(pdf)
        img.set_bitmap(pdfium.PdfBitmap.from_pil(image.convert("RGB")))
        fit = min(612 / image.width, 792 / image.height)
        w, h = image.width * fit, image.height * fit
        img.set_matrix(pdfium.PdfMatrix().scale(w, h).translate(0, 792 - h))
        page.insert_obj(img)
        page.gen_content()
        page.close()
    pdf.save(str(path))
    pdf.close()
    tmp.unlink()
    return path
