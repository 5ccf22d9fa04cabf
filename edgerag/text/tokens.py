"""Token counting: one `Tokenizer` for chunk lengths (ℓ) and context budgets (λ).

Two units are available (``Settings.tokenizer``):

* ``cl100k`` — OpenAI's cl100k_base, offline through the bpe-openai package. The papers count
  in it, so budgets like "12,000 tokens" mean the same thing here as in their tables. It is
  the default because an index built with it does not depend on which GGUF a user runs.
* ``gguf:PATH`` — the vocabulary of a local GGUF model, loaded with llama.cpp's
  ``vocab_only=True`` (no weights in memory): the exact unit the model will see.

The LLM layer always measures its own prompts with its own vocabulary, whatever unit the
index uses, so a context never overflows the model's window.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol


class Tokenizer(Protocol):
    name: str

    def count(self, text: str) -> int: ...


class Cl100kTokenizer:
    name = "cl100k"

    def __init__(self) -> None:
        from bpe_openai import _bindings

        self._bpe = _bindings.tokenizer_for_encoding("cl100k_base")

    def count(self, text: str) -> int:
        return self._bpe.count(text)


class GGUFVocabTokenizer:
    """Counts with a GGUF model's own vocabulary, loading only the vocabulary."""

    def __init__(self, path: str) -> None:
        from llama_cpp import Llama

        self.name = f"gguf:{path}"
        self._llama = Llama(model_path=path, vocab_only=True, verbose=False)

    def count(self, text: str) -> int:
        if not text:
            return 0
        return len(self._llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))


@lru_cache(maxsize=4)
def get_tokenizer(spec: str = "cl100k") -> Tokenizer:
    """The tokenizer named by ``Settings.tokenizer``; loaded once per process."""
    if spec == "cl100k":
        return Cl100kTokenizer()
    if spec.startswith("gguf:"):
        return GGUFVocabTokenizer(spec[len("gguf:") :])
    raise ValueError(f"unknown tokenizer {spec!r}: use 'cl100k' or 'gguf:/path/to/model.gguf'")
