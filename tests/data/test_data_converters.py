"""Converters on real files: counts checked against the annotations themselves."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from docextract.data.funsd import convert_funsd
from docextract.data.kleister import date_spans, label_words, locate_value, read_records, term_surface_forms
from docextract.data.report import MatchTally
from docextract.data.sroie import convert_sroie
from docextract.data.tagging import entity_spans


def test_funsd_words_and_entities_match_the_annotations(shared_data):
    folder = shared_data("funsd", "testing_data")
    docs, report = convert_funsd(folder, "test", limit=5)
    assert report.documents == 5
    for doc in docs:
        form = json.loads((folder / "annotations" / f"{doc.id}.json").read_text())["form"]
        kept = [(e, w) for e in form for w in e["words"] if w["text"].strip()]
        page = doc.document.pages[0]
        assert [w.text for w in page.words] == [w["text"].strip() for _, w in kept]
        assert list(doc.labels[0]) == [e["label"] if e["label"] != "other" else "O" for e, _ in kept]
        # 72 dpi assumed (the PNGs record none): points equal pixels, the page is the image
        assert page.words[0].box.as_list() == [float(v) for v in kept[0][1]["box"]]
        expected = Counter(e["label"] for e in form if e["label"] != "other" and any(w["text"].strip() for w in e["words"]))
        assert Counter(s.label for s in entity_spans(doc)) == expected
        assert all(0 <= w.box.x0 <= w.box.x1 <= page.width and 0 <= w.box.top <= w.box.bottom <= page.height for w in page.words)


def test_sroie_labels_the_key_values(shared_data):
    folder = shared_data("sroie", "train")
    docs, report = convert_sroie(folder, "train", limit=8)
    assert report.documents == 8
    for doc in docs:
        expected = json.loads((folder / "entities" / f"{doc.id}.txt").read_text())
        rows = [r for r in (folder / "box" / f"{doc.id}.txt").read_text().splitlines() if r.strip()]
        assert doc.document.word_count == sum(len(r.split(",", 8)[8].split()) for r in rows)
        assert doc.fields == {k: (" ".join(expected[k].split()),) for k in ("company", "address", "date", "total")}
        words = doc.document.pages[0].words
        for span in entity_spans(doc):
            text = "".join(words[i].text for i in range(span.start, span.end)).upper()
            assert "".join(expected[span.label].split()).upper()[:4] in text  # fuzzy matches still share the start
    assert sum(report.unmatched.values()) <= 2
    assert report.expected == {"address": 8, "company": 8, "date": 8, "total": 8}


def test_sroie_total_prefers_the_total_line(shared_data):
    folder = shared_data("sroie", "train")
    docs, _ = convert_sroie(folder, "train", limit=1)  # X00016469612: 9.00 appears on TOTAL, CASH? lines
    doc = docs[0]
    page = doc.document.pages[0]
    total_words = [i for i, label in enumerate(doc.labels[0]) if label == "total"]
    line = next(l for l in page.lines if total_words[0] in l.word_indices)
    same_row = [l for l in page.lines if l.box.vertical_overlap(line.box) > 0]
    assert any("TOTAL" in " ".join(page.words[i].text for i in l.word_indices).upper() for l in same_row)


def test_kleister_value_forms():
    assert "three (3) years" in term_surface_forms("3 years")
    assert "thirty-six months" in term_surface_forms("3 years")
    words = "made as of the 1st day of May, 2019 by and between NIKE, Inc. for three (3) years".split()
    assert date_spans(words, "2019-05-01") == [(4, 9)]
    assert locate_value(words, "party", "Nike Inc.") == ([(12, 14)], None)
    assert locate_value(words, "term", "3 years") == ([(15, 18)], None)
    assert locate_value(words, "effective_date", "2019-06-01")[1] == "no date in the text parses to this day"
    assert locate_value(words, "jurisdiction", "New York") == ([], "value not in the text")


def test_kleister_values_found_in_the_text_columns(shared_data):
    folder = shared_data("kleister-nda", "train")
    records = read_records(folder)[:10]
    assert len(records) == 10 and all(k in ("effective_date", "jurisdiction", "party", "term") for r in records for k, _ in r.expected)
    tally = MatchTally()
    for record in records:
        words = record.texts["text_best"].split()
        labels, entities = label_words(words, record.expected, tally, record.filename)
        assert len(labels) == len(entities) == len(words)
    assert sum(tally.expected.values()) == sum(len(r.expected) for r in records)
    assert sum(tally.unmatched.values()) <= 2


def test_kleister_from_pdfs(shared_data):
    pytest.importorskip("docextract.readers", reason="docextract.readers (PDF reading) is not merged yet")
    from docextract.data.kleister import convert_kleister

    docs, report = convert_kleister(shared_data("kleister-nda"), limit=2)
    assert report.documents == 2 and all(d.document.word_count > 0 for d in docs)
    assert sum(report.unmatched.values()) < sum(report.expected.values())


def test_convert_and_validate_commands(shared_data, tmp_path):
    from typer.testing import CliRunner

    from docextract.cli import app
    from docextract.data.labelled import read_jsonl

    runner = CliRunner()
    out = tmp_path / "funsd_test.jsonl"
    result = runner.invoke(app, ["convert", "funsd", str(shared_data("funsd")), str(out), "--split", "test"])
    assert result.exit_code == 0, result.output
    assert len(list(read_jsonl(out))) == 50
    assert runner.invoke(app, ["validate", str(out)]).exit_code == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text(out.read_text().splitlines()[0].replace('"label": "question"', '"label": "price"', 1) + "\n")
    result = runner.invoke(app, ["validate", str(bad)])
    assert result.exit_code == 4 and "not in the label set" in result.output
    missing = runner.invoke(app, ["convert", "sroie", str(tmp_path / "nowhere"), str(tmp_path / "x.jsonl")])
    assert missing.exit_code == 4


def test_kleister_words_overhanging_the_page_are_clipped_onto_it(shared_data):
    from docextract.data.kleister import clipped_to_pages
    from docextract.readers import read_document

    # pdfplumber reads a glyph of this contract's first page a few points past the right edge
    pdf = shared_data("kleister-nda", "train") / "documents" / "a373847e741d0b4db97466b8964a66ae.pdf"
    document = read_document(pdf)
    clipped, count = clipped_to_pages(document)
    assert count >= 1
    for page in clipped.pages:
        assert all(0 <= w.box.x0 <= w.box.x1 <= page.width and 0 <= w.box.top <= w.box.bottom <= page.height
                   for w in page.words)
    assert [w.text for p in clipped.pages for w in p.words] == [w.text for p in document.pages for w in p.words]
