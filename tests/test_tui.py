"""The Textual app, driven by Textual's pilot: the real embedder and the real default model on
the planted documents, snapshots of the three main screens at 80×24, and a safe cancel."""

from __future__ import annotations

import asyncio
import shutil
import time

import pytest
from textual.widgets import DataTable, Input, Select, Static

from edgerag import EdgeRAG
from edgerag.llm.metered import MeteredLLM
from tui.app import EdgeRAGApp

from .conftest import DATA, PLANTED_ANSWER, PLANTED_QUESTION
from .helpers import NamesLLM


def _record_notes(app) -> list[tuple[str, str]]:
    """(severity, message) of every notification the app shows."""
    notes, notify = [], app.notify

    def record(message, **kw):
        notes.append((kw.get("severity", "information"), str(message)))
        return notify(message, **kw)

    app.notify = record
    return notes


async def _wait_job(app, pilot, seconds: float = 300) -> None:
    """Let the app's worker finish (the UI keeps running meanwhile); it must not fail."""
    end = time.monotonic() + seconds
    while app.job is not None:
        assert time.monotonic() < end, f"{app.job_name} did not finish in {seconds}s"
        await pilot.pause(0.2)
    await pilot.pause()
    errors = [m for sev, m in getattr(app, "notes", []) if sev == "error"]
    assert not errors, errors


def _cell_texts(table: DataTable) -> list[list[str]]:
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A folder with the planted documents in docs/ (paths in the screens stay relative)."""
    shutil.copytree(DATA / "planted", tmp_path / "docs" / "planted")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.model
def test_index_ask_and_see_the_ledger_change_with_the_real_model(workdir):
    asyncio.run(_index_ask_and_see_the_ledger())


async def _index_ask_and_see_the_ledger():
    app = EdgeRAGApp("index", root="docs")
    app.notes = _record_notes(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "IndexScreen"  # no index yet: start where one is made
        await pilot.click("#tree")
        for key in ("down", "a"):  # the tree's first child is the planted folder
            await pilot.press(key)
        assert [p.name for p in app.screen.selected] == ["planted"]
        await pilot.click("#insert")
        await _wait_job(app, pilot)
        assert app.rag.index.counts()["docs"] == 3
        assert "added 3 documents" in str(app.screen.query_one("#plan-text", Static).render())

        await pilot.press("f4")
        before = _cell_texts(app.screen.query_one("#tokens", DataTable))
        assert before == [["all", "", "0", "0", "0", "0", "0.0"]]  # no model has worked yet

        await pilot.press("f3")
        query = app.screen
        query.query_one("#question", Input).value = PLANTED_QUESTION
        query.query_one("#budget", Input).value = "400"
        await pilot.click("#ask")
        await _wait_job(app, pilot)
        units = _cell_texts(query.query_one("#units", DataTable))
        assert units and units[0][3] == "The Zorblax vault (0)"  # the planted passage ranks first
        answer = str(query.query_one("#answer", Static).render())
        assert PLANTED_ANSWER in answer
        footer = str(query.query_one("#footer", Static).render())
        assert "[1]" in footer and "The Zorblax vault" in footer and "token account:" in footer
        assert query.query_one("#history").children  # the question is in the history

        await pilot.press("f4")
        rows = {r[0]: r for r in _cell_texts(app.screen.query_one("#tokens", DataTable))}
        assert rows["stage answer"][2] == "1" and int(rows["all"][4].replace(",", "")) > 0
        assert rows["stage answer"][1].startswith("qwen2.5-coder-0.5b")  # the model column: tokens compare within a model
        assert "stage answer" in str(app.screen.query_one("#chart", Static).render())


def test_cancel_stops_a_build_after_the_current_step_and_the_next_build_resumes(workdir):
    EdgeRAG("index", progress=False).insert(["docs"])
    asyncio.run(_cancel_and_resume())


async def _cancel_and_resume():
    app = EdgeRAGApp("index", root="docs", terag_batch=1)
    fake = NamesLLM()
    slow = fake.complete

    def complete(*a, **k):  # long enough to press cancel while the first call runs
        time.sleep(0.5)
        return slow(*a, **k)

    fake.complete = complete
    app.rag.__dict__["llm"] = MeteredLLM(fake, app.rag.index.tables)
    app.notes = _record_notes(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        app.screen.query_one("#method", Select).value = "terag"
        await pilot.click("#build")
        await pilot.pause(0.1)
        await pilot.press("escape")
        await _wait_job(app, pilot)
        done = [r for r in app.rag.index.get_many("names", app.rag.index.ids("chunks")) if r]
        assert len(done) == 1  # the step under way finished and was kept; no other began
        assert any(sev == "warning" and "cancelled" in m for sev, m in app.notes)
        await pilot.click("#build")
        await _wait_job(app, pilot)
        assert "2 chunks extracted now, 1 already done" in str(app.screen.query_one("#plan-text", Static).render())


@pytest.fixture
def indexed_workdir(workdir):
    EdgeRAG("index", progress=False).insert(["docs"])
    return workdir


def test_snapshot_index_screen(workdir, snap_compare):
    assert snap_compare(EdgeRAGApp("index", root="docs"), terminal_size=(80, 24))


def test_snapshot_query_screen(indexed_workdir, snap_compare):
    async def ask(pilot):
        pilot.app.screen.query_one("#question", Input).value = PLANTED_QUESTION

    assert snap_compare(EdgeRAGApp("index", root="docs"), terminal_size=(80, 24), run_before=ask)


def test_snapshot_ledger_screen(indexed_workdir, snap_compare):
    assert snap_compare(EdgeRAGApp("index", root="docs"), terminal_size=(80, 24), press=["f4"])


def test_help_shows_this_machine_as_doctor_reports_it(workdir):
    asyncio.run(_help_shows_doctor())


async def _help_shows_doctor():
    from edgerag.llm.cpu import cpu_model

    app = EdgeRAGApp("index", root="docs")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f1")
        assert type(app.screen).__name__ == "HelpScreen"
        box = app.screen.query_one("#doctor", Static)
        end = time.monotonic() + 60
        while str(box.render()).startswith("checking"):  # the report runs in a thread
            assert time.monotonic() < end, "the doctor report did not arrive in 60 s"
            await pilot.pause(0.2)
        text = str(box.render())
        assert cpu_model() in text and "sha256 verified" in text, text  # the real CPU and the real, verified model
        assert not any(line.startswith("probe") for line in text.splitlines())  # no generation from the help screen
        await pilot.press("escape")
        assert type(app.screen).__name__ != "HelpScreen"
