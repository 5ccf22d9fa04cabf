"""Benchmark folders: ``corpus.jsonl`` (passages) + ``questions.jsonl`` (questions, answers,
supporting passage ids), the format of ``shared/data`` and of the bundled sample."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    answers: list[str]
    supporting_ids: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Dataset:
    path: Path
    corpus: Path
    questions: list[Question]

    @property
    def name(self) -> str:
        return f"{self.path.parent.name}/{self.path.name}"


def load_dataset(path: str | Path, limit: int | None = None) -> Dataset:
    path = Path(path)
    corpus, qfile = path / "corpus.jsonl", path / "questions.jsonl"
    for f in (corpus, qfile):
        if not f.is_file():
            raise FileNotFoundError(f"{path} is not a benchmark folder: {f.name} is missing")
    questions = []
    with open(qfile, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                questions.append(
                    Question(
                        id=str(rec["id"]),
                        question=rec["question"],
                        answers=list(rec["answers"]),
                        supporting_ids=list(rec.get("supporting_ids") or []),
                    )
                )
            except (ValueError, KeyError, TypeError) as e:
                raise ValueError(f"{qfile}:{n}: not a question record ({e})") from e
            if limit and len(questions) >= limit:
                break
    return Dataset(path=path, corpus=corpus, questions=questions)
