"""Remake the README's screenshots of the TUI: index the bundled sample, ask one question with
the real default model, save the query and ledger screens as SVG (80×24).

    .venv/bin/python docs/screenshots.py
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from textual.widgets import Input  # noqa: E402

from edgerag import EdgeRAG  # noqa: E402
from tui.app import EdgeRAGApp  # noqa: E402


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # the title shows the index path: keep it short
        index = Path("index")
        EdgeRAG(index, progress=False).insert([REPO / "edgerag" / "data" / "sample" / "corpus.jsonl", REPO / "tests" / "data" / "planted"])
        app = EdgeRAGApp(index, root=REPO)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.screen.query_one("#question", Input).value = "What is the access code of the Zorblax vault?"
            app.screen.query_one("#budget", Input).value = "600"
            await pilot.click("#ask")
            while app.job is not None:
                await pilot.pause(0.2)
            await pilot.pause()
            app.save_screenshot("tui-query.svg", path=str(REPO / "docs"))
            await pilot.press("f4")
            await pilot.pause()
            app.save_screenshot("tui-ledger.svg", path=str(REPO / "docs"))
    print("wrote docs/tui-query.svg and docs/tui-ledger.svg")


if __name__ == "__main__":
    asyncio.run(main())
