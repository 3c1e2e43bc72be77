"""A student (finetune --student-layers): fewer of the teacher's layers, taught by its tags and hidden states as well as
by the labels; the teacher neither trains nor travels with the student, and the student is an ordinary model folder."""

import json
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from docextract.cli import app
from docextract.data.labelled import LabelledDocument, write_jsonl
from docextract.data.tagging import labels_for
from docextract.errors import UsageError
from docextract.modeling import from_preset
from docextract.modeling.batching import IGNORE_INDEX
from docextract.modeling.compact import save_compact
from docextract.modeling.student import kept_layers, matched_layers, student_of, teaching_loss
from docextract.modeling.tokenizer import load_tokenizer
from docextract.pipeline import RunOptions, extract_file, load_model
from docextract.synth.generate import SynthOptions, generate_invoice
from docextract.training.finetune import FinetuneOptions, finetune
from docextract.training.loop import TrainConfig, parameter_groups
from docextract.vocabulary import INVOICE_LABELS

runner = CliRunner()


def _model(layers: int):
    labels = labels_for(INVOICE_LABELS)
    torch.manual_seed(0)
    return from_preset("lspe-layoutlm", num_labels=len(labels), num_hidden_layers=layers,
                       id2label=dict(enumerate(labels)), label2id={t: i for i, t in enumerate(labels)})


def _inputs(size: int = 12):
    torch.manual_seed(1)
    ids = torch.randint(1000, 5000, (2, size))
    bbox = torch.randint(0, 500, (2, size, 4)).sort(-1).values
    labels = torch.randint(0, 5, (2, size))
    labels[:, ::3] = IGNORE_INDEX  # later word pieces and [CLS]/[SEP] carry no label
    return dict(input_ids=ids, attention_mask=torch.ones_like(ids), bbox=bbox, labels=labels)


def test_a_student_starts_from_evenly_spaced_layers_and_learns_the_last_of_those_it_replaces():
    assert kept_layers(6, 3) == [0, 2, 4] and matched_layers(6, 3) == [1, 3, 5]
    assert kept_layers(6, 2) == [0, 3] and matched_layers(6, 2) == [2, 5]
    assert kept_layers(4, 4) == [0, 1, 2, 3] == matched_layers(4, 4)
    with pytest.raises(ValueError):
        kept_layers(6, 7)


def test_student_of_copies_the_kept_layers_and_leaves_the_teacher_whole():
    teacher = _model(4)
    student = student_of(teacher, 2)
    assert len(teacher.layout.encoder.layer) == 4 and teacher.config.num_hidden_layers == 4
    assert len(student.layout.encoder.layer) == 2 and student.config.num_hidden_layers == 2
    for mine, theirs in zip(student.layout.encoder.layer, (teacher.layout.encoder.layer[i] for i in (0, 2))):
        for a, b in zip(mine.parameters(), theirs.parameters()):
            assert torch.equal(a, b) and a.data_ptr() != b.data_ptr()  # the same values, a copy
    assert torch.equal(student.classifier.weight, teacher.classifier.weight)


def test_the_teaching_loss_is_zero_on_the_teachers_own_tags_and_reads_labelled_tokens_only():
    inputs = _inputs()
    logits = torch.randn(2, 12, 7)
    assert float(teaching_loss(logits, logits, inputs["labels"])) == pytest.approx(0.0, abs=1e-6)
    other = logits.clone()
    unlabelled = inputs["labels"] == IGNORE_INDEX
    other[unlabelled] = torch.randn(int(unlabelled.sum()), 7)
    assert float(teaching_loss(other, logits, inputs["labels"])) == pytest.approx(0.0, abs=1e-6)
    assert float(teaching_loss(torch.randn(2, 12, 7), logits, inputs["labels"])) > 0.01


def test_an_attached_teacher_adds_to_the_training_loss_only_and_is_neither_trained_nor_saved(tmp_path):
    teacher = _model(2)
    student = student_of(teacher, 1)
    inputs = _inputs()
    student.train()
    torch.manual_seed(2)
    alone = float(student(**inputs).loss.detach())
    student.attach_teacher(teacher, 0.5)
    torch.manual_seed(2)  # the same dropout
    taught = student(**inputs).loss
    assert float(taught.detach()) != pytest.approx(alone)
    taught.backward()
    assert all(p.grad is None for p in teacher.parameters())
    assert not any(name.startswith("_teacher") for name in student.state_dict())
    assert len(list(student.parameters())) < len(list(teacher.parameters()))
    student.eval()
    with torch.no_grad():  # inference (no labels) reads the student alone
        assert torch.equal(student(**{k: v for k, v in inputs.items() if k != "labels"}).logits,
                           student.layout(inputs["input_ids"], inputs["attention_mask"], inputs["bbox"])
                           .last_hidden_state @ student.classifier.weight.T + student.classifier.bias)


def test_a_student_taught_alone_moves_towards_its_teacher():
    teacher = _model(2)
    student = student_of(teacher, 1)
    student.attach_teacher(teacher, 1.0)  # the teacher's loss only
    student.train()
    inputs = _inputs()
    # the rates finetune trains with (LSPE's position networks at their own scale: training/loop.py)
    optimizer = torch.optim.AdamW(parameter_groups(student, TrainConfig(output_dir=Path("unused"))), lr=1e-4)
    losses = []
    for _ in range(25):
        loss = student(**inputs).loss
        losses.append(float(loss.detach()))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert max(losses[-5:]) < 0.7 * losses[0]  # dropout makes single steps noisy


@pytest.fixture(scope="module")
def teacher_folder(tmp_path_factory) -> Path:
    """A compact 2-layer invoice model, as finetune saves one."""
    model = _model(2)
    model.config.docextract_window_tokens, model.config.docextract_stride = 126, 32
    folder = tmp_path_factory.mktemp("teacher") / "invoice"
    save_compact(model, folder)
    load_tokenizer().save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def invoices(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("invoices")
    docs = [LabelledDocument.from_dict(generate_invoice(3, i, SynthOptions(("classic_left",), pages_max=1), folder))
            for i in range(2)]
    write_jsonl(docs, folder / "labels.jsonl")
    return folder / "labels.jsonl"


def test_finetune_trains_a_student_that_run_reads_like_any_model(teacher_folder, invoices, tmp_path):
    result = runner.invoke(app, ["finetune", str(invoices), "--model", str(teacher_folder), "--student-layers", "1",
                                 "--epochs", "1", "--batch-size", "4", "--max-tokens", "126", "--stride", "32",
                                 "-o", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "student: 1 of 2 layers" in result.output
    folder = tmp_path / "run" / "model"
    config = json.loads((folder / "config.json").read_text())
    assert config["num_hidden_layers"] == 1
    assert config["id2label"] == json.loads((teacher_folder / "config.json").read_text())["id2label"]
    record = json.loads((folder / "training.json").read_text())
    assert record["options"]["student_layers"] == 1 and record["replay_documents"] == 0
    net, _ = load_model(str(folder))
    pdf = invoices.parent / json.loads(invoices.read_text().splitlines()[0])["source"]
    output = extract_file(str(pdf), RunOptions(model=str(folder)))
    assert output["documents"] and net is not None


def test_a_student_needs_a_teacher_with_a_trained_head_and_fewer_layers(teacher_folder, invoices, tmp_path):
    base = dict(train_files=(invoices,), eval_files=(), output_dir=tmp_path / "run", max_tokens=126, stride=32,
                epochs=1, batch_size=4)
    with pytest.raises(UsageError, match="no trained head"):
        finetune(FinetuneOptions(**base, model="lspe-layoutlm", student_layers=1))
    with pytest.raises(UsageError, match="below"):
        finetune(FinetuneOptions(**base, model=str(teacher_folder), student_layers=2))
