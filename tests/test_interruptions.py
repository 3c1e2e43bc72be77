"""Progress and Ctrl-C: `convert` draws a progress bar like `run`; Ctrl-C on a single-file `run`, on `convert` and on
`finetune` says what happened and what is kept (exit 130); the batch's message names --resume."""

import json

from einvoice_factory import PRINTED_INVOICE, cii_xml, einvoice_pdf
from pdf_factory import text_lines_pdf
from rich.console import Console
from typer.testing import CliRunner

from docextract.cli import app
from docextract.errors import EXIT_INTERRUPTED

runner = CliRunner()


def _said(result) -> str:
    return " ".join(result.stderr.split())


def test_convert_draws_a_progress_bar_over_the_documents(tmp_path):
    folder = tmp_path / "einvoices"
    folder.mkdir()
    for n in range(3):
        einvoice_pdf(folder / f"inv{n}.pdf", PRINTED_INVOICE, cii_xml(number=f"RE-{n}"))
    result = runner.invoke(app, ["convert", "einvoice", str(folder), str(tmp_path / "out.jsonl")])
    assert result.exit_code == 0, result.output
    assert "convert einvoice" in result.stderr and "3/3" in result.stderr


def test_ctrl_c_in_convert_says_the_output_was_not_written(tmp_path, monkeypatch):
    folder = tmp_path / "einvoices"
    folder.mkdir()
    for n in range(3):
        einvoice_pdf(folder / f"inv{n}.pdf", PRINTED_INVOICE, cii_xml(number=f"RE-{n}"))
    import docextract.data.einvoice as einvoice

    real = einvoice._einvoice_record
    calls = []

    def interrupted_on_the_second(*args):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(einvoice, "_einvoice_record", interrupted_on_the_second)
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["convert", "einvoice", str(folder), str(out)])
    assert result.exit_code == EXIT_INTERRUPTED
    assert f"docextract: interrupted: after 1 of 3 documents: {out} was not written" in _said(result)
    assert not out.exists()


def test_ctrl_c_in_a_single_file_run_says_nothing_was_written(tmp_path, monkeypatch):
    pdf = tmp_path / "a.pdf"
    text_lines_pdf(pdf, ["Invoice 1"])
    target = tmp_path / "a.json"
    target.write_text("previous\n")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("docextract.pipeline.extract_file", interrupted)
    result = runner.invoke(app, ["run", str(pdf), "--model", "none", "-o", str(target), "--overwrite"])
    assert result.exit_code == EXIT_INTERRUPTED
    assert f"{pdf} was not finished: {target} was not written (its previous content is kept)" in _said(result)
    assert target.read_text() == "previous\n"
    to_stdout = runner.invoke(app, ["run", str(pdf), "--model", "none"])
    assert to_stdout.exit_code == EXIT_INTERRUPTED and "nothing was printed" in _said(to_stdout)


def test_ctrl_c_in_run_dash_names_the_document_it_stopped_in(tmp_path, monkeypatch):
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    text_lines_pdf(first, ["Invoice 1"])
    text_lines_pdf(second, ["Invoice 2"])
    import docextract.pipeline as pipeline

    real = pipeline.extract_file

    def interrupted_on_the_second(path, *args, **kwargs):
        if str(getattr(path, "name", path)) == str(second):
            raise KeyboardInterrupt
        return real(path, *args, **kwargs)

    monkeypatch.setattr(pipeline, "extract_file", interrupted_on_the_second)
    result = runner.invoke(app, ["run", "-", "--model", "none"], input=f"{first}\n{second}\n")
    assert result.exit_code == EXIT_INTERRUPTED
    assert len(result.stdout.splitlines()) == 1 and json.loads(result.stdout)["source"]["path"] == str(first)
    assert (f"1 documents were printed, one line each; {second} was not finished and the paths after it were not "
            "read") in _said(result)


def test_ctrl_c_in_finetune_before_the_first_epoch_says_nothing_was_kept(tmp_path, monkeypatch):
    data = tmp_path / "train.jsonl"
    data.write_text("{}\n")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("docextract.training.finetune.finetune", interrupted)
    result = runner.invoke(app, ["finetune", str(data), "-o", str(tmp_path / "run"), "--threads", "1",
                                 "--device", "cpu"])
    assert result.exit_code == EXIT_INTERRUPTED
    assert "before the first epoch ended: nothing was kept" in _said(result)


def test_ctrl_c_in_finetune_after_an_epoch_names_the_checkpoint_it_resumes_from(tmp_path):
    from docextract.commands.train_common import training_kept
    from docextract.files import file_sha256
    from docextract.training.checkpoints import COMPLETE_MARKER

    checkpoint = tmp_path / "run" / "checkpoint-12"
    checkpoint.mkdir(parents=True)
    (checkpoint / "trainer_state.json").write_text(json.dumps({"step": 12, "epoch": 2}))
    (checkpoint / COMPLETE_MARKER).write_text(json.dumps({"trainer_state.json": file_sha256(checkpoint / "trainer_state.json").sha256}))
    said = training_kept(tmp_path / "run")
    assert said.startswith(f"the checkpoint of epoch 2 is kept ({checkpoint}); run the same command again to resume")
    assert training_kept(tmp_path / "nothing-here").startswith("before the first epoch ended: nothing was kept")


def test_an_interrupted_batch_names_resume():
    from docextract.batch.engine import BatchSummary, print_summary

    console = Console(record=True, width=300)
    summary = BatchSummary(inputs=10, by_status={"ok": 3, "skipped": 1}, by_code={}, processed=3, reused=0,
                           elapsed_s=1.0, files_per_s=3.0, workers=1, isolated=True, interrupted="SIGINT",
                           parent_peak_rss_mb=10.0, manifest="out/manifest.jsonl", config_hash="x")
    print_summary(summary, console)
    text = console.export_text()
    assert "4 of 10 inputs are done and kept" in text and "run the same command with --resume" in text
    assert summary.exit_code == EXIT_INTERRUPTED
