"""Tags <-> entity spans, sub-word encoding of a window on a real FUNSD form, and the LSPE augmentations."""

from __future__ import annotations

import pytest

from docextract.data.augment import global_block_shuffle, neighbour_block_swap, position_ids, reading_blocks
from docextract.data.funsd import convert_funsd
from docextract.data.labelled import LabelledDocument
from docextract.data.tagging import (
    IGNORE_INDEX,
    Span,
    document_tags,
    encode_window,
    entity_spans,
    labels_for,
    spans_from_tags,
    tags_from_spans,
)
from docextract.document import Box, Document, Page, Window, Word


@pytest.fixture(scope="module")
def funsd_doc():
    from tests.conftest import shared_data
    docs, _ = convert_funsd(shared_data("funsd"), "test", limit=1)
    return docs[0]


def _doc(labels, entities):
    words = tuple(Word(f"w{i}", Box(10 * i, 0, 10 * i + 8, 10)) for i in range(len(labels)))
    page = Page(1, 1000, 100, words)
    return LabelledDocument("t", Document("t", (page,)), (tuple(labels),), (tuple(entities),), ("a", "b"))


EDGE_CASES = [
    # adjacent entities of the same label, distinct ids: two spans
    (["a", "a", "a", "O", "b"], [1, 1, 2, None, 3], [Span("a", 0, 2), Span("a", 2, 3), Span("b", 4, 5)]),
    # no entity ids: runs of a label form one entity; entity at the very end and start
    (["b", "O", "a", "a"], [None] * 4, [Span("b", 0, 1), Span("a", 2, 4)]),
    # all outside / a single-word document
    (["O", "O"], [None, None], []),
    (["a"], [7], [Span("a", 0, 1)]),
    # a label change with the same entity id splits the span
    (["a", "b"], [1, 1], [Span("a", 0, 1), Span("b", 1, 2)]),
]


@pytest.mark.parametrize("labels,entities,spans", EDGE_CASES)
@pytest.mark.parametrize("scheme", ["BIO", "BIESO"])
def test_tags_round_trip(labels, entities, spans, scheme):
    doc = _doc(labels, entities)
    assert entity_spans(doc) == spans
    tags = document_tags(doc, scheme)
    assert set(tags) <= set(labels_for(doc.label_set, scheme))
    assert spans_from_tags(tags) == spans


def test_bieso_shapes_and_label_lists():
    spans = [Span("a", 0, 1), Span("b", 1, 4)]
    assert tags_from_spans(5, spans, "BIESO") == ["S-a", "B-b", "I-b", "E-b", "O"]
    assert tags_from_spans(5, spans, "BIO") == ["B-a", "B-b", "I-b", "I-b", "O"]
    assert labels_for(("a", "b"), "BIESO") == ["O", "B-a", "I-a", "E-a", "S-a", "B-b", "I-b", "E-b", "S-b"]
    assert len(labels_for(("a", "b", "c"), "BIESO")) == 4 * 3 + 1
    with pytest.raises(ValueError):
        labels_for(("a",), "IOB1")


def test_invalid_tags_decode_by_conlleval_rules():
    # a stray I- starts a chunk, B- of another label ends one, S- after E- of the same label is its own
    tags = ["I-a", "I-a", "B-b", "I-a", "E-a", "O", "S-b", "I-b", "E-b"]
    assert spans_from_tags(tags) == [Span("a", 0, 2), Span("b", 2, 3), Span("a", 3, 5), Span("b", 6, 7), Span("b", 7, 9)]


def test_encode_window_on_funsd(funsd_doc):
    from docextract.modeling.tokenizer import load_tokenizer

    tokenizer = load_tokenizer()
    refs = tuple(funsd_doc.document.ordered_words()[:80])
    window = Window(index=0, words=refs, token_count=0, core_start=20, core_end=60)
    tags = labels_for(funsd_doc.label_set, "BIO")
    label_ids = {tag: i for i, tag in enumerate(tags)}
    encoded = encode_window(funsd_doc, window, tokenizer, label_ids)
    n = len(encoded["input_ids"])
    assert all(len(v) == n for v in encoded.values()) and n > len(refs) + 2
    assert encoded["input_ids"][0] == tokenizer.cls_token_id and encoded["input_ids"][-1] == tokenizer.sep_token_id
    assert encoded["bbox"][0] == [0, 0, 0, 0] and encoded["bbox"][-1] == [1000] * 4
    assert all(0 <= v <= 1000 for box in encoded["bbox"] for v in box)
    doc_tags = document_tags(funsd_doc, "BIO")
    seen = set()
    for position, (word, label) in enumerate(zip(encoded["word_index"], encoded["labels"])):
        first = word >= 0 and word not in seen
        seen.add(word)
        if first and 20 <= word < 60:
            assert label == label_ids[doc_tags[word]]  # the window starts at reading position 0
        else:
            assert label == IGNORE_INDEX, (position, word)
    assert seen - {-1} == set(range(80))
    assert sum(l != IGNORE_INDEX for l in encoded["labels"]) == 40
    assert any(l not in (IGNORE_INDEX, label_ids["O"]) for l in encoded["labels"])


def test_block_augmentations_are_deterministic_permutations(funsd_doc):
    doc = funsd_doc.document
    original = doc.ordered_words()
    blocks = reading_blocks(doc.pages[0])
    assert len(blocks) > 5 and sorted(w for b in blocks for w in b) == list(range(doc.word_count))
    for augment in (global_block_shuffle, neighbour_block_swap):
        once, again, other = augment(doc, seed=3), augment(doc, seed=3), augment(doc, seed=4)
        assert once.ordered_words() == again.ordered_words() != other.ordered_words()
        assert sorted(once.ordered_words(), key=lambda r: r.word_index) == original
        assert once.pages[0].words == doc.pages[0].words  # labels stay aligned with words
        # blocks move whole: every block's words remain consecutive and in their order
        order = [r.word_index for r in once.ordered_words()]
        for block in blocks:
            start = order.index(block[0])
            assert tuple(order[start:start + len(block)]) == block
    relabelled = funsd_doc.with_document(global_block_shuffle(doc, seed=1))
    tags = document_tags(relabelled)
    assert sum(t != "O" for t in tags) == sum(l != "O" for l in funsd_doc.labels[0])
    assert tags != document_tags(funsd_doc)  # tags follow the new reading order


def test_neighbour_swap_moves_blocks_only_nearby(funsd_doc):
    doc = funsd_doc.document
    blocks = reading_blocks(doc.pages[0])
    swapped = reading_blocks(neighbour_block_swap(doc, seed=0, sigma=0.4).pages[0])
    moved = sum(a != b for a, b in zip(blocks, swapped))
    assert 0 < moved < len(blocks) // 2
    assert reading_blocks(neighbour_block_swap(doc, seed=0, sigma=0.0).pages[0]) == blocks


def test_position_ids_flag():
    assert position_ids(4) == [0, 1, 2, 3]
    assert position_ids(4, drop_1d=True) == [0, 0, 0, 0]
