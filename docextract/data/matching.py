"""Finding an expected value (a key's text) among a document's words, as a span of word positions.

Values and words are compared in a *compact* form: case folded, and only letters and digits kept
(``"NIKE, Inc."`` and ``"Nike Inc"`` are both ``nikeinc``), so spacing, punctuation and line breaks
do not matter. A match must start and end on a token boundary of the compact text, with one
exception: a number may be glued to letters (``RM9.00`` holds the total ``9.00``, ``DATE:25/12/2018``
the date), but never to other digits (``19.00`` does not hold ``9.00``). OCR misreadings are handled
by :func:`fuzzy_span`, a similarity search over spans of about the value's length.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Sequence

FUZZY_MIN_RATIO = 0.85  # difflib similarity a misread value must reach (SROIE: "SDN BND" for "SDN BHD")
FUZZY_LENGTH_SLACK = 0.25  # candidate spans are within +-25% of the value's compact length


@dataclass(frozen=True)
class CompactText:
    """The compact form of a word sequence and, for each of its characters, the word it came from."""

    text: str
    word_of: tuple[int, ...]  # word position of each character of ``text``
    starts: frozenset[int]  # character offsets where a word begins
    ends: frozenset[int]  # character offsets just after a word ends


def compact(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def compact_words(words: Sequence[str]) -> CompactText:
    chars: list[str] = []
    word_of: list[int] = []
    starts: set[int] = set()
    ends: set[int] = set()
    for position, word in enumerate(words):
        piece = compact(word)
        if not piece:
            continue
        starts.add(len(chars))
        chars.extend(piece)
        word_of.extend([position] * len(piece))
        ends.add(len(chars))
    return CompactText("".join(chars), tuple(word_of), frozenset(starts), frozenset(ends))


def _boundary_ok(text: CompactText, start: int, end: int, value: str) -> bool:
    """The occurrence ``text.text[start:end]`` of ``value`` is a whole token, or a number glued to letters."""
    before = text.text[start - 1] if start > 0 else ""
    after = text.text[end] if end < len(text.text) else ""
    start_ok = start in text.starts or (value[0].isdigit() and not before.isdigit()) or (value[0].isalpha() and not before.isalpha())
    end_ok = end in text.ends or (value[-1].isdigit() and not after.isdigit()) or (value[-1].isalpha() and not after.isalpha())
    return start_ok and end_ok


def exact_spans(text: CompactText, value: str) -> list[tuple[int, int]]:
    """Every occurrence of ``value`` (compared compactly) as word positions ``(start, end)``, end exclusive."""
    needle = compact(value)
    spans: list[tuple[int, int]] = []
    if not needle:
        return spans
    offset = text.text.find(needle)
    while offset >= 0:
        end = offset + len(needle)
        if _boundary_ok(text, offset, end, needle):
            span = (text.word_of[offset], text.word_of[end - 1] + 1)
            if not spans or spans[-1] != span:
                spans.append(span)
        offset = text.text.find(needle, offset + 1)
    return spans


def fuzzy_span(words: Sequence[str], value: str, min_ratio: float = FUZZY_MIN_RATIO) -> tuple[int, int] | None:
    """The word span most similar to ``value`` (difflib ratio of compact forms), if it reaches ``min_ratio``."""
    needle = compact(value)
    if not needle:
        return None
    pieces = [compact(word) for word in words]
    low, high = len(needle) * (1 - FUZZY_LENGTH_SLACK), len(needle) * (1 + FUZZY_LENGTH_SLACK)
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(needle)
    best: tuple[float, int, int] | None = None
    for start in range(len(pieces)):
        if not pieces[start]:
            continue
        joined = ""
        for end in range(start, len(pieces)):
            joined += pieces[end]
            if len(joined) > high:
                break
            if len(joined) < low or not pieces[end]:
                continue
            matcher.set_seq1(joined)
            if matcher.real_quick_ratio() < min_ratio or matcher.quick_ratio() < min_ratio:
                continue
            ratio = matcher.ratio()
            if ratio >= min_ratio and (best is None or ratio > best[0]):
                best = (ratio, start, end + 1)
    return None if best is None else (best[1], best[2])
