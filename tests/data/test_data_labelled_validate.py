"""The labelled JSONL format round-trips exactly, and the validator names file, line, record and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docextract.data.funsd import convert_funsd
from docextract.data.labelled import LabelledDocument, read_jsonl, write_jsonl
from docextract.data.validate import ERROR, WARNING, validate_files
from docextract.errors import InputError


@pytest.fixture(scope="module")
def funsd_docs():
    from tests.conftest import shared_data
    docs, _ = convert_funsd(shared_data("funsd"), "test", limit=4)
    return docs


def _write_records(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_round_trip_is_exact(funsd_docs, tmp_path):
    path = tmp_path / "funsd.jsonl"
    assert write_jsonl(funsd_docs, path) == 4
    assert list(read_jsonl(path)) == funsd_docs
    assert not list(tmp_path.glob(".*.tmp"))  # the temporary file was renamed away


def test_malformed_line_names_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "a"\n', encoding="utf-8")
    with pytest.raises(InputError, match="line 1"):
        list(read_jsonl(path))


def test_clean_converted_set_has_no_errors(funsd_docs, tmp_path):
    train = tmp_path / "train.jsonl"
    write_jsonl(funsd_docs[:3], train)
    test = tmp_path / "test.jsonl"
    write_jsonl(funsd_docs[3:], test)
    assert [i for i in validate_files([train], [test]) if i.severity == ERROR] == []


DEFECTS = {
    # name: (mutation of the first record, expected field, words in the message)
    "outside page": (lambda r: r["pages"][0]["words"][2].update(box=[10, 10, 5000, 20]), "pages[0].words[2].box", "outside"),
    "inverted": (lambda r: r["pages"][0]["words"][3].update(box=[50, 60, 40, 70]), "pages[0].words[3].box", "inverted"),
    "nan": (lambda r: r["pages"][0]["words"][4].update(box=[float("nan"), 1, 2, 3]), "pages[0].words[4].box", "NaN"),
    "label": (lambda r: r["pages"][0]["words"][5].update(label="price"), "pages[0].words[5].label", "not in the label set"),
    "box length": (lambda r: r["pages"][0]["words"][6].update(box=[1, 2, 3]), "pages[0].words[6].box", "4 numbers"),
    "block order": (lambda r: r["pages"][0].update(block_order=[0, 1]), "pages[0].block_order", "mismatch"),
    "empty": (lambda r: r["pages"][0].update(words=[]), "pages", "empty document"),
}


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_each_defect_is_named(funsd_docs, tmp_path, defect):
    mutate, field, words = DEFECTS[defect]
    records = [d.to_dict() for d in funsd_docs[:2]]
    mutate(records[1])
    path = _write_records(tmp_path / "train.jsonl", records)
    found = [i for i in validate_files([path]) if i.severity == ERROR]
    assert len(found) == 1, found
    issue = found[0]
    assert (issue.file, issue.line, issue.record_id, issue.field) == (str(path), 2, funsd_docs[1].id, field)
    assert words in issue.message and str(path) in str(issue) and funsd_docs[1].id in str(issue)


def test_duplicate_ids_and_leakage(funsd_docs, tmp_path):
    records = [d.to_dict() for d in funsd_docs[:2]]
    duplicate = dict(records[0], pages=records[1]["pages"])  # same id as record 1, same content as record 2
    train = _write_records(tmp_path / "train.jsonl", records)
    test = _write_records(tmp_path / "test.jsonl", [duplicate])
    found = [i for i in validate_files([train], [test]) if i.severity == ERROR]
    assert {(i.file, i.line, i.field) for i in found} == {(str(test), 1, "id"), (str(train), 2, "pages")}
    assert any("leakage" in i.message for i in found)


def test_class_without_examples_is_a_warning(funsd_docs, tmp_path):
    record = funsd_docs[0].to_dict()
    record["label_set"].append("signature")
    path = _write_records(tmp_path / "train.jsonl", [record])
    issues = validate_files([path])
    assert [i.severity for i in issues] == [WARNING] and "'signature' has zero examples" in issues[0].message


def test_labelled_document_rejects_misaligned_labels(funsd_docs):
    doc = funsd_docs[0]
    with pytest.raises(ValueError, match="labels"):
        LabelledDocument(doc.id, doc.document, ((),), doc.entities, doc.label_set)
