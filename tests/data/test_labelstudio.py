"""Label Studio: `run --format labelstudio` pre-annotations, `labelstudio-config`, `convert labelstudio`, and the
round trip through a real Label Studio (started on loopback from its own virtualenv, `scripts/setup-labelstudio.sh`;
skipped with the reason when it is not installed): import predictions, review, export, convert, finetune."""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pdf_factory import render_page, text_lines_pdf
from PIL import Image
from typer.testing import CliRunner

from docextract.cli import app
from docextract.data.labelled import read_jsonl
from docextract.errors import EXIT_INPUT_FAILED

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()
REAL_INVOICE = ("einvoices", "XML-Rechnung", "FX", "EN16931_Einfach.pdf")  # 2 pages, a real producer's layout


def label_studio_python() -> Path | None:
    """The Python that has label-studio and its SDK: $DOCEXTRACT_LABEL_STUDIO_PYTHON, else .venv-ls/bin/python."""
    candidate = Path(os.environ.get("DOCEXTRACT_LABEL_STUDIO_PYTHON") or REPO / ".venv-ls" / "bin" / "python")
    if not candidate.is_file() or not candidate.with_name("label-studio").is_file():
        return None
    return candidate


TINY_MODEL_LABELS = ["O", "B-total", "I-total"]  # conftest's tiny_model: one to finetune from (the converted labels give it a new head)


@pytest.fixture(scope="module")
def invoice_pdf(tmp_path_factory) -> Path:
    """A real e-invoice when the shared data is there, else a two-page synthetic invoice."""
    from conftest import SHARED_DATA

    real = SHARED_DATA.joinpath(*REAL_INVOICE)
    if real.is_file():
        return real
    from docextract.synth.generate import SynthOptions, generate_invoice

    folder = tmp_path_factory.mktemp("synth")
    record = generate_invoice(3, 0, SynthOptions(("formal_times",), pages_max=2, pages_min=2), folder)
    return folder / record["source"]


@pytest.fixture(scope="module")
def tasks(invoice_pdf, tmp_path_factory) -> tuple[Path, list[dict], dict]:
    """`run --format labelstudio` with the shipped invoice model, and the plain JSON of the same run."""
    out = tmp_path_factory.mktemp("tasks") / "tasks.json"
    result = runner.invoke(app, ["run", str(invoice_pdf), "--format", "labelstudio", "--out", str(out)])
    assert result.exit_code == 0, result.output
    plain = runner.invoke(app, ["run", str(invoice_pdf), "--include-tokens"])
    return out, json.loads(out.read_text()), json.loads(plain.stdout)


def test_predictions_are_label_studio_tasks_one_per_page(tasks):
    _, made, output = tasks
    assert len(made) == len(output["pages"]) == 2
    for task, page in zip(made, output["pages"]):
        prefix = "data:image/png;base64,"
        assert task["data"]["image"].startswith(prefix)
        image = Image.open(io.BytesIO(base64.b64decode(task["data"]["image"][len(prefix):])))
        assert abs(image.width / image.height - page["width"] / page["height"]) < 0.01  # the whole page
        assert task["data"]["docextract"]["page"] == page["page"]
        (prediction,) = task["predictions"]
        assert prediction["model_version"].startswith("invoice@docextract-")
        assert 0 <= prediction["score"] <= 1
        results = prediction["result"]
        assert {r["type"] for r in results} <= {"rectangle", "labels", "textarea"} and len(results) % 3 == 0
        for r in results:
            assert 0 <= r["value"]["x"] <= 100 and 0 <= r["value"]["y"] + r["value"]["height"] <= 100.01
    entities = [e for d in output["documents"] for e in d["entities"]]
    labelled = [(r["value"]["labels"][0], r["score"]) for t in made for r in t["predictions"][0]["result"] if r["type"] == "labels"]
    assert sorted(labelled) == sorted((e["label"], e["confidence"]) for e in entities)


def test_the_labelling_config_names_the_models_labels_and_the_regions_tags(tasks):
    result = runner.invoke(app, ["labelstudio-config"])
    assert result.exit_code == 0
    root = ET.fromstring(result.stdout)
    labels = {label.get("value") for label in root.iter("Label")}
    assert {"invoice_number", "total", "line_item_amount"} <= labels
    names = {element.get("name") for element in root if element.get("name")}
    used = {r["from_name"] for t in tasks[1] for r in t["predictions"][0]["result"]}
    assert used <= names  # every prediction fits the config
    custom = runner.invoke(app, ["labelstudio-config", "total", "iban"])
    assert {label.get("value") for label in ET.fromstring(custom.stdout).iter("Label")} == {"total", "iban"}


def test_every_label_gets_a_colour_of_its_own():
    """The invoice model has 21 labels; 18 colours cycled gave three pairs of labels the same colour."""
    root = ET.fromstring(runner.invoke(app, ["labelstudio-config"]).stdout)
    colours = [label.get("background") for label in root.iter("Label")]
    assert len(colours) == 21 and len(set(colours)) == 21
    many = ET.fromstring(runner.invoke(app, ["labelstudio-config", *[f"label_{n}" for n in range(60)]]).stdout)
    assert len({label.get("background") for label in many.iter("Label")}) == 60


def reviewed(made: list[dict]) -> list[dict]:
    """What Label Studio exports after a reviewer accepted the predictions and relabelled the first region 'total'."""
    export = []
    for n, task in enumerate(made, start=1):
        result = json.loads(json.dumps(task["predictions"][0]["result"]))
        for r in result:
            if r["id"] == result[0]["id"] and r["type"] == "labels":
                r["value"]["labels"] = ["total"]
        export.append({"id": n, "data": task["data"], "annotations": [{"id": n, "result": result, "was_cancelled": False}],
                       "predictions": task["predictions"]})
    return export


def check_converted(jsonl: Path, made: list[dict], output: dict) -> None:
    (doc,) = read_jsonl(jsonl)
    assert [p.number for p in doc.document.pages] == [p["page"] for p in output["pages"]]
    # the words are exactly the ones run read, and every predicted region's words carry its label
    tokens = sorted(output["tokens"], key=lambda t: (t["page"], int(t["id"].rsplit("-t", 1)[1])))
    assert [w.text for page in doc.document.pages for w in page.words] == [t["text"] for t in tokens]
    labels = [label for page in doc.labels for label in page]
    first = made[0]["predictions"][0]["result"][0]["value"]
    page = doc.document.pages[0]
    inside = [i for i, w in enumerate(page.words) if first["x"] <= 100 * w.box.center[0] / page.width <= first["x"] + first["width"]
              and first["y"] <= 100 * w.box.center[1] / page.height <= first["y"] + first["height"]]
    assert inside and all(doc.labels[0][i] == "total" for i in inside)  # the reviewer's correction, not the prediction
    assert sum(label != "O" for label in labels) >= len(inside)


def finetune(jsonl: Path, tiny_model: Path, out: Path) -> None:
    result = runner.invoke(app, ["finetune", str(jsonl), "--model", str(tiny_model), "--output",
                                 str(out), "--epochs", "1", "--threads", "1"])
    assert result.exit_code == 0, result.output
    config = json.loads(next(out.rglob("config.json")).read_text())
    (doc,) = read_jsonl(jsonl)  # the new head has a tag for every field the reviewed pages label, the correction's too
    fields = {label for page in doc.labels for label in page if label != "O"}
    assert "total" in fields and len(fields) > 3
    assert {f"B-{field}" for field in fields} <= set(config["label2id"])


def test_a_reviewed_export_converts_to_labelled_data_and_trains(tasks, tiny_model, tmp_path):
    _, made, output = tasks
    export = tmp_path / "export.json"
    export.write_text(json.dumps(reviewed(made)))
    jsonl = tmp_path / "train.jsonl"
    result = runner.invoke(app, ["convert", "labelstudio", str(export), str(jsonl)])
    assert result.exit_code == 0, result.output
    check_converted(jsonl, made, output)
    assert runner.invoke(app, ["validate", str(jsonl)]).exit_code == 0
    finetune(jsonl, tiny_model, tmp_path / "run")


def test_image_tasks_without_words_are_read_from_the_page(tmp_path):
    """A project of plain page images: words come from OCR; a region with text where OCR read nothing keeps its text."""
    if shutil.which("tesseract") is None:
        pytest.skip("Tesseract is not installed: image tasks are read by OCR")
    pdf = tmp_path / "page.pdf"
    text_lines_pdf(pdf, ["ACME GmbH Musterstrasse 1", "Rechnung Nr. RE-2024-0042", "Gesamt 1.190,00 EUR"],
                   width=360, height=240)
    render_page(pdf, 200).save(tmp_path / "page.png")
    box = lambda x, y, w, h: {"x": x, "y": y, "width": w, "height": h, "rotation": 0}  # noqa: E731
    results = [
        {"id": "a", "type": "rectanglelabels", "from_name": "label", "to_name": "image",
         "value": {**box(0, 0, 100, 100 * 46 / 240), "rectanglelabels": ["vendor_name"]}},  # the first line only
        {"id": "b", "type": "rectangle", "value": box(50, 90, 40, 8)},
        {"id": "b", "type": "labels", "value": {**box(50, 90, 40, 8), "labels": ["iban"]}},
        {"id": "b", "type": "textarea", "value": {**box(50, 90, 40, 8), "text": ["DE89 3704 0044 0532 0130 00"]}},
    ]
    export = tmp_path / "export.json"
    export.write_text(json.dumps([{"id": 5, "data": {"image": "/data/local-files/?d=page.png"},
                                   "annotations": [{"id": 1, "result": results}]},
                                  {"id": 6, "data": {"image": "/data/local-files/?d=page.png"}, "annotations": []}]))
    jsonl = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["convert", "labelstudio", str(export), str(jsonl), "--files-root", str(tmp_path)])
    assert result.exit_code == 0, result.output
    (doc,) = read_jsonl(jsonl)
    words = {w.text: label for w, label in zip(doc.document.pages[0].words, doc.labels[0])}
    assert words.get("ACME") == "vendor_name" and words.get("Gesamt") == "O"
    assert [t for t, label in words.items() if label == "iban"] == ["DE89", "3704", "0044", "0532", "0130", "00"]


@pytest.mark.parametrize("task, problem", [
    ({"id": 7, "data": {"image": "x.png"}, "annotations": [{"result": [
        {"id": "r1", "type": "polygonlabels", "value": {"points": [[1, 1], [5, 5], [1, 5]], "polygonlabels": ["total"]}}]}]},
     "task 7: region r1 is a polygonlabels"),
    ({"id": 8, "data": {"image": "x.png"}, "annotations": [{"result": [
        {"id": "r2", "type": "rectanglelabels", "value": {"x": 1, "y": 1, "width": 5, "height": 5, "rotation": 30,
                                                          "rectanglelabels": ["total"]}}]}]},
     "task 8: region r2 is rotated"),
    ({"id": 9, "data": {"image": "/data/local-files/?d=missing.png"}, "annotations": [{"result": []}]},
     "task 9: its image /data/local-files/?d=missing.png is not under"),
    ({"id": 10, "data": {"image": "https://example.com/a.png"}, "annotations": [{"result": []}]},
     "task 10: its image is a URL"),
])
def test_unusable_exports_fail_naming_the_task(task, problem, tmp_path):
    Image.new("RGB", (20, 20), "white").save(tmp_path / "x.png")
    export = tmp_path / "export.json"
    export.write_text(json.dumps([task]))
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["convert", "labelstudio", str(export), str(out)])
    assert result.exit_code == EXIT_INPUT_FAILED, result.output
    assert problem in " ".join(result.output.split()) and not out.exists()


def test_a_file_that_is_no_export_is_refused(tmp_path):
    export = tmp_path / "export.json"
    export.write_text('{"not": "tasks"}')
    result = runner.invoke(app, ["convert", "labelstudio", str(export), str(tmp_path / "o.jsonl")])
    assert result.exit_code == EXIT_INPUT_FAILED and "not a Label Studio JSON export" in result.output


def test_round_trip_through_a_real_label_studio(tasks, tiny_model, tmp_path):
    python = label_studio_python()
    if python is None:
        pytest.skip("Label Studio is not installed (scripts/setup-labelstudio.sh installs it into .venv-ls, or set "
                    "DOCEXTRACT_LABEL_STUDIO_PYTHON to a Python that has label-studio and label-studio-sdk)")
    path, made, output = tasks
    config = tmp_path / "config.xml"
    config.write_text(runner.invoke(app, ["labelstudio-config"]).stdout)
    export = tmp_path / "export.json"
    (tmp_path / "ls-data").mkdir()
    done = subprocess.run([str(python), str(REPO / "tests" / "labelstudio_roundtrip.py"), str(path), str(config),
                           str(export), str(tmp_path / "ls-data")], capture_output=True, text=True, timeout=600)
    log = tmp_path / "ls-data" / "label-studio.log"
    assert done.returncode == 0, done.stdout + done.stderr + (log.read_text()[-3000:] if log.exists() else "")
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["tasks"] == seen["predictions"] == len(made)
    assert seen["model_versions"] == [made[0]["predictions"][0]["model_version"]]
    assert sorted(seen["scores"]) == sorted(t["predictions"][0]["score"] for t in made)
    jsonl = tmp_path / "train.jsonl"
    result = runner.invoke(app, ["convert", "labelstudio", str(export), str(jsonl)])
    assert result.exit_code == 0, result.output
    check_converted(jsonl, made, output)
    finetune(jsonl, tiny_model, tmp_path / "run")
