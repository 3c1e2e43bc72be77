"""Windows over the reading order: invariants on real FUNSD forms with the real MiniLM token counts."""

from __future__ import annotations

import pytest
from funsd_words import funsd_document

from docextract.document import Box, Document, Page, Word, WordRef
from docextract.errors import UsageError
from docextract.layout import analyze_layout, make_windows
from docextract.modeling.tokenizer import subword_counts

FORMS = ("82092117.json", "82200067_0069.json", "82253362_3364.json", "82254765.json")


@pytest.fixture(scope="module")
def funsd_docs():
    from conftest import shared_data

    folder = shared_data("funsd", "testing_data", "annotations")
    docs = [analyze_layout(funsd_document(folder / name)) for name in FORMS]
    counts = [subword_counts([w.text for _, w in doc.iter_words()]) for doc in docs]
    return list(zip(docs, counts))


def line_of(doc: Document) -> dict[WordRef, tuple[int, int]]:
    return {
        WordRef(pi, w): (pi, li)
        for pi, page in enumerate(doc.pages) for li, line in enumerate(page.lines) for w in line.word_indices
    }


def check_invariants(doc, counts, windows, max_tokens, stride, cross_pages=False):
    refs = doc.ordered_words()
    tokens = dict(zip(refs, counts))
    lines = line_of(doc)
    # Every word in exactly one core, in reading order, none lost.
    cores = [ref for w in windows for ref in w.core]
    assert cores == refs
    for k, window in enumerate(windows):
        assert window.index == k
        assert 0 <= window.core_start < window.core_end <= len(window.words)
        # Windows are contiguous slices of the reading order.
        first = refs.index(window.words[0])
        assert list(window.words) == refs[first:first + len(window.words)]
        # Token budget, and the count it reports is the truth.
        assert window.token_count == sum(tokens[r] for r in window.words) <= max_tokens
        assert window.pages == tuple(sorted({r.page_index for r in window.words}))
        if not cross_pages:
            assert len(window.pages) == 1
        # No line cut at a core edge or a window edge (no FUNSD line exceeds these budgets).
        for cut in (window.core_start, window.core_end):
            if 0 < cut < len(window.words):
                assert lines[window.words[cut - 1]] != lines[window.words[cut]]
        if first > 0:
            assert lines[refs[first - 1]] != lines[refs[first]]
        last = first + len(window.words)
        if last < len(refs):
            assert lines[refs[last - 1]] != lines[refs[last]]
        if k:
            shared = set(windows[k - 1].words) & set(window.words)
            assert sum(tokens[r] for r in shared) <= stride


@pytest.mark.parametrize("max_tokens,stride", [(510, 128), (128, 32), (64, 16), (40, 0)])
def test_funsd_windows_keep_every_invariant(funsd_docs, max_tokens, stride):
    for doc, counts in funsd_docs:
        windows = make_windows(doc, counts, max_tokens=max_tokens, stride=stride)
        check_invariants(doc, counts, windows, max_tokens, stride)
        if sum(counts) > max_tokens:
            assert len(windows) > 1


def test_consecutive_windows_share_context_near_the_stride(funsd_docs):
    doc, counts = funsd_docs[0]
    tokens = dict(zip(doc.ordered_words(), counts))
    windows = make_windows(doc, counts, max_tokens=128, stride=32)
    assert len(windows) >= 3
    for a, b in zip(windows, windows[1:]):
        shared = sum(tokens[r] for r in set(a.words) & set(b.words))
        assert 0 < shared <= 32
        # The core boundary sits inside the overlap (both neighbours see context around it).
        assert a.core_end >= a.words.index(b.words[0])
        assert b.core_start <= b.words.index(a.words[-1]) + 1


def test_whole_page_fits_in_one_window(funsd_docs):
    doc, counts = funsd_docs[0]
    windows = make_windows(doc, counts, max_tokens=510, stride=128)
    assert sum(counts) <= 510
    assert len(windows) == 1 and windows[0].core == tuple(doc.ordered_words())


def test_windows_stay_within_a_page_unless_cross_pages(funsd_docs):
    (a, ca), (b, cb) = funsd_docs[0], funsd_docs[1]
    doc = Document("two.json", (a.pages[0], b.pages[0].replace(number=2)))
    counts = ca + cb
    per_page = make_windows(doc, counts, max_tokens=510, stride=128)
    assert [w.pages for w in per_page] == [(0,), (1,)]
    check_invariants(doc, counts, per_page, 510, 128)
    spanning = make_windows(doc, counts, max_tokens=510, stride=128, cross_pages=True)
    assert any(len(w.pages) == 2 for w in spanning)
    check_invariants(doc, counts, spanning, 510, 128, cross_pages=True)


def one_line_doc(n_words: int) -> Document:
    words = tuple(Word(f"w{k}", Box(10 + 12 * k, 100, 20 + 12 * k, 110)) for k in range(n_words))
    return analyze_layout(Document("line.json", (Page(1, 2000, 800, words),)))


def test_a_line_longer_than_the_budget_is_cut_at_word_boundaries():
    doc = one_line_doc(30)
    assert len(doc.pages[0].lines) == 1
    counts = [2] * 30
    windows = make_windows(doc, counts, max_tokens=20, stride=6)
    assert [r for w in windows for r in w.core] == doc.ordered_words()
    assert all(w.token_count <= 20 for w in windows)
    assert len(windows) >= 3


def test_a_word_longer_than_the_budget_gets_a_window_of_its_own():
    doc = one_line_doc(3)
    windows = make_windows(doc, [2, 50, 2], max_tokens=10, stride=2)
    assert [len(w.core) for w in windows] == [1, 1, 1]
    assert windows[1].token_count == 50 and windows[1].words == (WordRef(0, 1),)


def test_pages_without_layout_window_word_by_word():
    words = tuple(Word(f"w{k}", Box(10, 10 + 12 * k, 20, 20 + 12 * k)) for k in range(10))
    doc = Document("raw.json", (Page(1, 612, 792, words),))
    windows = make_windows(doc, [1] * 10, max_tokens=4, stride=1)
    assert [r for w in windows for r in w.core] == doc.ordered_words()


def test_empty_document_and_bad_arguments():
    empty = Document("empty.json", (Page(1, 612, 792, ()),))
    assert make_windows(empty, []) == []
    doc = one_line_doc(3)
    with pytest.raises(UsageError):
        make_windows(doc, [1, 1, 1], max_tokens=10, stride=10)
    with pytest.raises(UsageError):
        make_windows(doc, [1, 1, 1], max_tokens=0, stride=0)
    with pytest.raises(ValueError):
        make_windows(doc, [1, 1], max_tokens=10, stride=2)
