"""`docextract split --train N`: a small training side of whole invoices (a group, or one true invoice number, never
on both sides, as `calibrate` folds), the rest to measure and calibrate on."""

import pytest
from typer.testing import CliRunner

from docextract.cli import app
from docextract.data.labelled import LabelledDocument, read_jsonl, write_jsonl
from docextract.data.splitting import invoice_keys, split_train
from docextract.document import Box, Document, Page, Word

runner = CliRunner()


def _doc(doc_id: str, group: str | None = None, number: str | None = None) -> LabelledDocument:
    page = Page(number=1, width=100, height=100, words=(Word("x", Box(1, 1, 5, 5)),))
    fields = {"invoice_number": (number,)} if number else {}
    return LabelledDocument(doc_id, Document(source=f"{doc_id}.pdf", pages=(page,)), (("O",),), ((None,),),
                            ("invoice_number",), fields, group)


# a: 3 renderings; b and c: other invoices; d shares c's invoice number (the same invoice for `calibrate`); e alone
DOCS = [_doc("a1", "a", "1"), _doc("a2", "a", "1"), _doc("a3", "a", "1"), _doc("b1", "b", "2"),
        _doc("c1", "c", "3"), _doc("d1", "d", "3"), _doc("e1", None, None)]


def test_an_invoice_is_one_group_or_one_true_invoice_number():
    keys = dict(zip([d.id for d in DOCS], invoice_keys(DOCS)))
    assert keys["a1"] == keys["a2"] == keys["a3"] and keys["c1"] == keys["d1"] != keys["b1"]
    assert keys["e1"] == "id:e1"
    assert len(set(invoice_keys(DOCS, by_number=False))) == 5  # the group rule alone (split --every) keeps c, d apart


@pytest.mark.parametrize("size, expected", [(1, ["b1"]), (2, ["b1", "e1"]), (3, ["a1", "a2", "a3"]),
                                            (4, ["a1", "a2", "a3", "b1"]), (0.5, ["a1", "a2", "a3", "b1"])])
def test_the_training_side_takes_whole_invoices_until_it_holds_n_documents(size, expected):
    """Invoices in order of name (a: 3, b: 1, c+d: 2, e: 1), each taken when it still fits."""
    train, rest = split_train(DOCS, size)
    assert [d.id for d in train] == expected
    assert sorted(d.id for d in train + rest) == sorted(d.id for d in DOCS)
    keys = dict(zip([d.id for d in DOCS], invoice_keys(DOCS)))
    assert {keys[d.id] for d in train}.isdisjoint({keys[d.id] for d in rest})


def test_no_invoice_small_enough_takes_the_first_and_a_seed_takes_others():
    only_big = DOCS[:3] + [_doc("z1", "z", "9"), _doc("z2", "z", "9")]
    assert [d.id for d in split_train(only_big, 1)[0]] == ["a1", "a2", "a3"]
    draws = {tuple(d.id for d in split_train(DOCS, 2, seed=s)[0]) for s in range(10)}
    assert len(draws) > 1 and all(len(draw) == 2 for draw in draws)


def test_the_command_writes_both_sides_and_says_how_many_invoices(tmp_path):
    write_jsonl(DOCS, tmp_path / "all.jsonl")
    out = [str(tmp_path / "few.jsonl"), str(tmp_path / "rest.jsonl")]
    result = runner.invoke(app, ["split", str(tmp_path / "all.jsonl"), *out, "--train", "2"])
    assert result.exit_code == 0, result.output
    assert "2 documents of 2 invoices" in result.output
    assert [d.id for d in read_jsonl(tmp_path / "few.jsonl")] == ["b1", "e1"]
    assert len(list(read_jsonl(tmp_path / "rest.jsonl"))) == 5
    result = runner.invoke(app, ["split", str(tmp_path / "all.jsonl"), *out, "--train", "2", "--every", "3"])
    assert result.exit_code == 2 and "not both" in result.output
    result = runner.invoke(app, ["split", str(tmp_path / "all.jsonl"), *out, "--train", "2.5"])
    assert result.exit_code == 2 and "whole number" in result.output
