"""Reading PDF, DOCX, HTML and EPUB: speed, memory, and how much of the text survives.

    flock /tmp/edgerag-cpu.lock .venv/bin/python benchmarks/ingest_formats.py [--pages 1000] [--index-pages 1000]

1. A generated PDF of ``--pages`` pages (about 1,500 characters a page, pypdfium2 text
   objects): pages/s and peak RSS for reading alone (`iter_documents`), then for `index`
   end to end (read, chunk, embed with the real MiniLM, write LMDB + hnswlib) on the first
   ``--index-pages`` pages. Each is its own child process, so peak RSS is that step's own.
2. Text kept per format: one plain-text original (headings, paragraphs, a table) written
   as .txt, .pdf, .docx, .html (inside navigation, banner, sidebar, footer, scripts) and
   .epub; for each, the share of the original's words the reader returns (multiset recall)
   and the share of returned words not in the original (noise).
3. HTML: ours (BeautifulSoup + lxml, html.py) against trafilatura on three saved-page
   layouts, by the real sentences kept and the boilerplate sentences let through
   (trafilatura is measured only if installed; it is not a dependency).
4. OCR (``--ocr-pages N``, ``--only-ocr`` for this study alone): N scanned pages of real
   prose of each kind (clean, turned 2°, grey on grey) through each installed engine
   (RapidOCR, Tesseract), each engine in its own child process: seconds a page, character
   accuracy (1 − edit distance / characters, whitespace squeezed) and peak RSS.

Writes benchmarks/results/ingest_formats.json and prints a table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

WORDS = (
    "harbour lantern keeper ledger orchard pear tonnage ferry bridge ochre violet granite mill river "
    "spring autumn survey council budget repair tide storm beacon signal archive record measure"
).split()


def sentence(rng: random.Random, k: int) -> str:
    return f"Item {k}: the " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 16))) + "."


def page_text(rng: random.Random, n: int, chars: int = 1500) -> str:
    out, k = [], 0
    while sum(len(s) + 1 for s in out) < chars:
        out.append(sentence(rng, n * 100 + k))
        k += 1
    return " ".join(out)


# ---- child processes: one measurement each, peak RSS its own -----------------------------
def child_read(pdf: str) -> dict:
    from edgerag.ingest import iter_documents
    from edgerag.types import Document

    t0 = time.perf_counter()
    docs = chars = 0
    for item in iter_documents([pdf]):
        if isinstance(item, Document):
            docs += 1
            chars += len(item.text)
    return {
        "seconds": time.perf_counter() - t0,
        "docs": docs,
        "chars": chars,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def child_index(pdf: str, index: str) -> dict:
    from edgerag import EdgeRAG

    rag = EdgeRAG(index, progress=False)
    rag.embedder  # noqa: B018 (loaded before the clock: model load is not reading)
    t0 = time.perf_counter()
    report = rag.insert([pdf])
    secs = time.perf_counter() - t0
    return {
        "seconds": secs,
        "docs": report.docs_added,
        "chunks": report.chunks,
        "texts_embedded": report.texts_embedded,
        "embed_seconds": report.embed_seconds,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def page_lines(n: int, width: int = 70) -> list[str]:
    """Page ``n`` of real prose: the bundled sample's passages (Wikipedia), wrapped."""
    import textwrap

    rows = [json.loads(line) for line in (REPO / "edgerag" / "data" / "sample" / "corpus.jsonl").read_text().splitlines()]
    text = " ".join(r["text"] for r in rows[3 * n : 3 * n + 3])
    return textwrap.wrap(text, width)[:22]


def edit_distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def child_ocr(engine: str, pages: str) -> dict:
    """OCR ``pages`` rendered pages of each kind (clean, turned 2°, grey on grey) with one
    engine, a fresh cache: seconds per page, character accuracy, peak RSS."""
    os.environ["EDGERAG_OCR"] = engine
    os.environ["EDGERAG_CACHE"] = tempfile.mkdtemp()
    from edgerag.ingest import ocr
    from tests.docmaker import text_image

    kinds = {"clean": {}, "turned 2°": {"angle": 2.0}, "grey on grey": {"ink": 110, "paper": 170}}
    out = {}
    for kind, style in kinds.items():
        secs, errors, chars = 0.0, 0, 0
        for n in range(int(pages)):
            lines = page_lines(n)
            img = text_image(lines, size=26, **style)
            t0 = time.perf_counter()
            page = ocr.recognise(img)
            secs += time.perf_counter() - t0
            want, got = " ".join(" ".join(lines).split()), " ".join(page.text.split())
            errors += edit_distance(want, got)
            chars += len(want)
        out[kind] = {"pages": int(pages), "seconds_per_page": round(secs / int(pages), 2), "char_accuracy": round(1 - errors / chars, 4)}
    # Tesseract runs as a program of its own: its peak counts too
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    out["peak_rss_mib"] = round(peak / 1024)
    return out


def ocr_engines(pages: int) -> dict:
    """The OCR study: each installed engine in its own child process; prints its table."""
    import shutil

    found = {}
    for engine in ("rapidocr", "tesseract"):
        try:
            found[engine] = run_child("ocr", engine, str(pages))
        except Exception as e:  # not installed: say so in the JSON
            found[engine] = {"error": str(e).splitlines()[-1][:200], "tesseract_on_path": bool(shutil.which("tesseract"))}
    print(f"\n{'OCR engine':<12}{'page kind':<14}{'s/page':>8}{'char accuracy':>15}{'peak RSS MiB':>14}")
    for engine, r in found.items():
        if "error" in r:
            print(f"{engine:<12}not measured: {r['error']}")
            continue
        for kind, k in r.items():
            if isinstance(k, dict):
                print(f"{engine:<12}{kind:<14}{k['seconds_per_page']:>8.2f}{k['char_accuracy']:>15.1%}{r['peak_rss_mib']:>14}")
    return found


def run_child(*args: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


# ---- text kept per format ----------------------------------------------------------------
def original(rng: random.Random) -> list[tuple]:
    items = []
    for s in range(4):
        items.append(("h", 1, f"Section {s + 1} on the {WORDS[s]}"))
        for p in range(4):
            items.append(("p", " ".join(sentence(rng, s * 10 + p * 3 + i) for i in range(3))))
        items.append(("t", [["measure", "value"], [WORDS[s + 5], str(100 + s)], [WORDS[s + 9], str(200 + s)]]))
    return items


def as_text(items) -> str:
    out = []
    for it in items:
        out.append(it[2] if it[0] == "h" else it[1] if it[0] == "p" else "\n".join(" | ".join(r) for r in it[1]))
    return "\n\n".join(out)


def as_html_body(items) -> str:
    out = []
    for it in items:
        if it[0] == "h":
            out.append(f"<h2>{it[2]}</h2>")
        elif it[0] == "p":
            out.append(f"<p>{it[1]}</p>")
        else:
            out.append("<table>" + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in it[1]) + "</table>")
    return "".join(out)


def words(text: str) -> Counter:
    return Counter(re.findall(r"[a-z0-9]+", text.lower()))


def kept(orig: str, got: str) -> dict:
    a, b = words(orig), words(got)
    common = sum((a & b).values())
    return {"recall": round(common / max(sum(a.values()), 1), 4), "noise": round(1 - common / max(sum(b.values()), 1), 4)}


def formats_kept(tmp: Path) -> dict:
    from edgerag.ingest import iter_documents
    from edgerag.types import Document
    from tests.docmaker import html_page, make_docx, make_epub, make_pdf

    items = original(random.Random(7))
    text = as_text(items)
    files = {"txt": tmp / "orig.txt"}
    files["txt"].write_text(text)
    chunks = [text[i : i + 1400] for i in range(0, len(text), 1400)]
    files["pdf"] = make_pdf(tmp / "orig.pdf", chunks)
    files["docx"] = make_docx(tmp / "orig.docx", items)
    files["html"] = tmp / "orig.html"
    files["html"].write_text(html_page("Original", as_html_body(items)))
    files["epub"] = make_epub(
        tmp / "orig.epub", "Original", [("Part one", as_html_body(items[:12])), ("Part two", as_html_body(items[12:]))]
    )
    out = {}
    for kind, f in files.items():
        got = "\n\n".join(d.text for d in iter_documents([f]) if isinstance(d, Document))
        out[kind] = {**kept(text, got), "chars": len(got), "original_chars": len(text)}
    return out


# ---- HTML: ours against trafilatura ------------------------------------------------------
BOILER = [
    "Subscribe to our newsletter for weekly updates",
    "We use cookies to improve your experience",
    "Copyright 2026 Example Media Group, all rights reserved",
    "Related: ten other stories you may like",
    "Share this article on social media",
    "Menu Home News Sport Weather",
]


def saved_pages(rng: random.Random) -> list[tuple[str, str, list[str]]]:
    """(name, html, real sentences): a blog post, a news article with a table and a list,
    and a documentation page without <main> or <article> (div soup)."""
    pages = []
    real = [sentence(rng, k) for k in range(12)]
    body = "<h1>A blog post</h1>" + "".join(f"<p>{s}</p>" for s in real[:8]) + "<ul>" + "".join(f"<li>{s}</li>" for s in real[8:]) + "</ul>"
    pages.append(("blog", _chrome(f"<article>{body}</article>"), real))
    real = [sentence(rng, 100 + k) for k in range(10)]
    table = "<table>" + "".join(f"<tr><td>{s}</td></tr>" for s in real[6:]) + "</table>"
    body = (
        "<h1>News</h1>" + "".join(f"<p>{s}</p>" for s in real[:3]) + "<h2>Figures</h2>" + "".join(f"<p>{s}</p>" for s in real[3:6]) + table
    )
    pages.append(("news", _chrome(f"<main>{body}</main>"), real))
    real = [sentence(rng, 200 + k) for k in range(10)]
    body = "<div class='content'><div class='title'>Docs page</div>" + "".join(f"<div class='para'>{s}</div>" for s in real) + "</div>"
    pages.append(("docs-divs", _chrome(body), real))
    return pages


def _chrome(main: str) -> str:
    return (
        f"<html><head><title>Saved page</title><script>var s = 'script';</script></head><body>"
        f"<div id='top-menu' class='menu'>{BOILER[5]}</div><div class='cookie-banner'>{BOILER[1]}.</div>"
        f"{main}<div class='related'>{BOILER[3]}.</div><div class='social-share'>{BOILER[4]}.</div>"
        f"<div class='newsletter'>{BOILER[0]}.</div><div id='footer'>{BOILER[2]}.</div></body></html>"
    )


def html_extractors() -> dict:
    from edgerag.ingest.html import html_blocks, parse

    def ours(html: str) -> str:
        return "\n".join(b.text for b in html_blocks(parse(html)))

    extractors = {"beautifulsoup+lxml (ours)": ours}
    try:
        import trafilatura

        extractors["trafilatura"] = lambda html: trafilatura.extract(html, include_tables=True, include_comments=False) or ""
        extractors["trafilatura favor_recall"] = lambda html: (
            trafilatura.extract(html, include_tables=True, include_comments=False, favor_recall=True) or ""
        )
    except ImportError:
        pass
    out: dict = {}
    for name, fn in extractors.items():
        per = {}
        for page, html, real in saved_pages(random.Random(3)):
            got = " ".join(fn(html).split())
            per[page] = {
                "real_kept": sum(s in got for s in real) / len(real),
                "boilerplate_leaked": sum(b in got for b in BOILER) / len(BOILER),
            }
        out[name] = {
            "pages": per,
            "real_kept": round(sum(p["real_kept"] for p in per.values()) / len(per), 4),
            "boilerplate_leaked": round(sum(p["boilerplate_leaked"] for p in per.values()) / len(per), 4),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=1000)
    ap.add_argument("--index-pages", type=int, default=1000)
    ap.add_argument("--child", nargs="+")
    ap.add_argument("--ocr-pages", type=int, default=5, help="pages of each kind per OCR engine (0: no OCR study)")
    ap.add_argument("--only-ocr", action="store_true", help="the OCR study alone")
    ap.add_argument("--out", default=str(REPO / "benchmarks" / "results" / "ingest_formats.json"))
    args = ap.parse_args()
    if args.child:
        kind, *rest = args.child
        print(json.dumps({"read": child_read, "index": child_index, "ocr": child_ocr}[kind](*rest)))
        return
    if args.only_ocr:
        from common import write_result

        write_result(Path(args.out).with_name("ocr.json"), {"engines": ocr_engines(args.ocr_pages)})
        return
    from tests.docmaker import make_pdf

    result: dict = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]}}
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        rng = random.Random(1)
        texts = [page_text(rng, n) for n in range(1, args.pages + 1)]
        t0 = time.perf_counter()
        big = make_pdf(tmp / "big.pdf", texts)
        result["pdf"] = {
            "pages": args.pages,
            "chars_per_page": round(sum(map(len, texts)) / len(texts)),
            "bytes": big.stat().st_size,
            "generate_seconds": round(time.perf_counter() - t0, 1),
        }
        r = run_child("read", str(big))
        result["read"] = {**r, "pages_per_s": round(args.pages / r["seconds"], 1)}
        small = big if args.index_pages >= args.pages else make_pdf(tmp / "part.pdf", texts[: args.index_pages])
        r = run_child("index", str(small), str(tmp / "ix"))
        result["index"] = {**r, "pages": args.index_pages, "pages_per_s": round(args.index_pages / r["seconds"], 2)}
        result["text_kept"] = formats_kept(tmp)
    result["html_extractors"] = html_extractors()
    if args.ocr_pages:
        result["ocr"] = ocr_engines(args.ocr_pages)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    rd, ix = result["read"], result["index"]
    print(f"PDF: {args.pages} pages, {result['pdf']['chars_per_page']} chars/page, {result['pdf']['bytes'] / 2**20:.1f} MiB")
    print(f"{'step':<28}{'pages':>7}{'seconds':>10}{'pages/s':>10}{'peak RSS MiB':>14}")
    print(f"{'read (iter_documents)':<28}{args.pages:>7}{rd['seconds']:>10.1f}{rd['pages_per_s']:>10.1f}{rd['peak_rss_mib']:>14.0f}")
    print(f"{'index end to end':<28}{args.index_pages:>7}{ix['seconds']:>10.1f}{ix['pages_per_s']:>10.2f}{ix['peak_rss_mib']:>14.0f}")
    print(f"\n{'format':<8}{'words kept':>12}{'noise':>8}")
    for kind, k in result["text_kept"].items():
        print(f"{kind:<8}{k['recall']:>12.1%}{k['noise']:>8.1%}")
    print(f"\n{'HTML extractor':<28}{'real text kept':>16}{'boilerplate in':>16}")
    for name, h in result["html_extractors"].items():
        print(f"{name:<28}{h['real_kept']:>16.1%}{h['boilerplate_leaked']:>16.1%}")
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
