"""The pre-extracted words JSON (docs/words-json.md): round trip and validation naming page, word, field."""

from __future__ import annotations

import json

import pytest

import pdf_factory as factory
from docextract.errors import InputError
from docextract.readers import read_document


def write(tmp_path, data) -> str:
    path = tmp_path / "words.json"
    path.write_text(json.dumps(data))
    return path


def test_round_trip_of_a_read_document(tmp_path):
    pdf = tmp_path / "doc.pdf"
    factory.two_column_pdf(pdf)
    original = read_document(pdf)
    path = write(tmp_path, original.to_dict())
    again = read_document(path)
    assert again.mime_type == "application/json" and again.sha256 and again.source == str(path)
    assert again.pages == original.pages  # words, boxes, sizes, text source, rotation


def test_pixel_units_are_converted_to_points(tmp_path):
    path = write(tmp_path, {"pages": [{"width": 2550, "height": 3300, "unit": "px", "dpi": 300, "words": [
        {"text": "Total", "box": [300, 600, 600, 660], "confidence": 0.9}]}]})
    page = read_document(path).pages[0]
    assert (page.width, page.height) == pytest.approx((612, 792))
    assert page.words[0].box.as_list() == pytest.approx([72, 144, 144, 158.4])
    assert page.words[0].confidence == 0.9 and page.text_source == "words_json"


GOOD_WORD = {"text": "ok", "box": [1, 2, 3, 4]}


@pytest.mark.parametrize("data, where", [
    ([1, 2], "top level"),
    ({"pages": []}, "pages"),
    ({"pages": [{"height": 10, "words": []}]}, "page 1, field 'width'"),
    ({"pages": [{"width": -1, "height": 10, "words": []}]}, "page 1, field 'width'"),
    ({"pages": [{"width": 10, "height": 10, "unit": "mm", "words": []}]}, "page 1, field 'unit'"),
    ({"pages": [{"width": 10, "height": 10, "unit": "px", "words": []}]}, "page 1, field 'dpi'"),
    ({"pages": [{"width": 10, "height": 10}]}, "page 1, field 'words'"),
    ({"pages": [{"width": 10, "height": 10, "words": [GOOD_WORD]},
                {"width": 10, "height": 10, "words": [GOOD_WORD, {"text": "", "box": [0, 0, 1, 1]}]}]},
     "page 2, word 2, field 'text'"),
    ({"pages": [{"width": 10, "height": 10, "words": [{"text": "a", "box": [0, 0, 1]}]}]}, "word 1, field 'box'"),
    ({"pages": [{"width": 10, "height": 10, "words": [{"text": "a", "box": [5, 0, 1, 1]}]}]}, "word 1, field 'box'"),
    ({"pages": [{"width": 10, "height": 10, "words": [{"text": "a", "box": ["x", 0, 1, 1]}]}]}, "word 1, field 'box'"),
    ({"pages": [{"width": 10, "height": 10, "words": [{"text": "a", "box": [0, 0, 1, 1], "confidence": 87}]}]},
     "word 1, field 'confidence'"),
])
def test_validation_errors_name_the_place(tmp_path, data, where):
    path = write(tmp_path, data) if not isinstance(data, list) else None
    if path is None:
        path = tmp_path / "list.json"
        path.write_text("{\"not\": " + json.dumps(data) + "}")  # starts like JSON, has no 'pages'
    with pytest.raises(InputError) as info:
        read_document(path)
    assert where in info.value.message and info.value.path == str(path)
    assert info.value.code == "INPUT_UNREADABLE"


def test_broken_json_names_line_and_column(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"pages": [\n  {"width": 10,,}\n]}')
    with pytest.raises(InputError) as info:
        read_document(path)
    assert "line 2" in info.value.message
