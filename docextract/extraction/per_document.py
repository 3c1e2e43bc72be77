"""Answers computed once per document: the key rule, the candidate scorer, the document type and the output each
ask the same questions of one document (its line index, its printed dates and amounts, its locale), and asked
them anew each time.

:func:`per_document` remembers a function's answers for the last few documents. Documents are frozen, so an
answer stays right while the document lives; they are told apart by identity (hashing one would walk all its
words), and the memory holds the document itself, so an identity is never reused while its answer is kept.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from typing import Any, Callable, TypeVar

DOCUMENTS_KEPT = 4  # a batch worker or `serve` decodes one document at a time; a few more cost nothing

F = TypeVar("F", bound=Callable[..., Any])


def per_document(function: F) -> F:
    """``function(doc, *args)`` answered from memory when it was asked of this very document with equal ``args``
    (hashable) before."""
    answers: OrderedDict[tuple, tuple[Any, Any]] = OrderedDict()
    lock = threading.Lock()  # `serve` decodes in threads

    @functools.wraps(function)
    def remembered(doc, *args):
        key = (id(doc), *args)
        with lock:
            kept = answers.get(key)
            if kept is not None and kept[0] is doc:
                answers.move_to_end(key)
                return kept[1]
        answer = function(doc, *args)
        with lock:
            answers[key] = (doc, answer)
            answers.move_to_end(key)
            while len(answers) > DOCUMENTS_KEPT * 8:  # a few questions (argument sets) per document
                answers.popitem(last=False)
        return answer

    remembered.uncached = function  # type: ignore[attr-defined]
    return remembered  # type: ignore[return-value]
