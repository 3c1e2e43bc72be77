"""--device and --mixed-precision: auto takes the CPU where there is no GPU; a GPU named but missing fails
with one line and exit 3 before any data is read; fp16/bf16 on the CPU is a usage error (exit 2)."""

import pytest
import torch
from typer.testing import CliRunner

from docextract.cli import app
from docextract.errors import EXIT_MISSING_DEPENDENCY, EXIT_USAGE, MissingDependencyError, UsageError
from docextract.modeling import devices
from docextract.modeling.devices import autocast_dtype, resolve_device

no_gpu = pytest.mark.skipif(torch.cuda.is_available() or devices._mps_available(),
                            reason="these check the behaviour without a GPU")


@pytest.fixture()
def without_gpus(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(devices, "_mps_available", lambda: False)


def test_auto_picks_the_cpu_without_a_gpu(without_gpus):
    assert resolve_device("auto") == torch.device("cpu")
    assert autocast_dtype("auto", torch.device("cpu")) is None  # the CPU trains in fp32


def test_auto_picks_a_gpu_when_torch_sees_one(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    assert resolve_device("auto", local_rank=1) == torch.device("cuda", 1)  # torchrun: the process's own GPU


@pytest.mark.parametrize("name", ["cuda", "mps"])
def test_a_missing_gpu_is_an_error_not_a_fallback(without_gpus, name):
    with pytest.raises(MissingDependencyError, match=f"--device {name}"):
        resolve_device(name)


def test_half_precision_on_the_cpu_is_refused():
    for choice in ("bf16", "fp16"):
        with pytest.raises(UsageError, match="runs on a GPU"):
            autocast_dtype(choice, torch.device("cpu"))
    assert autocast_dtype("no", torch.device("cpu")) is None


def _assert_one_line(result, code: int, *needles: str) -> None:
    assert result.exit_code == code, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("docextract: "), result.output
    for needle in needles:
        assert needle in lines[0]


@no_gpu
def test_the_commands_fail_clearly_when_the_gpu_they_name_is_missing(tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text("")  # never read: the device is checked first
    runner = CliRunner()
    out = tmp_path / "out"
    _assert_one_line(runner.invoke(app, ["finetune", str(data), "-o", str(out), "--device", "cuda"]),
                     EXIT_MISSING_DEPENDENCY, "--device cuda")
    _assert_one_line(runner.invoke(app, ["pretrain", str(data), "-o", str(out), "--device", "mps"]),
                     EXIT_MISSING_DEPENDENCY, "--device mps")
    _assert_one_line(runner.invoke(app, ["evaluate", "sroie", str(data), "--device", "cuda"]),
                     EXIT_MISSING_DEPENDENCY, "--device cuda")
    _assert_one_line(runner.invoke(app, ["run", str(tmp_path / "missing.pdf"), "--device", "cuda"]),
                     EXIT_MISSING_DEPENDENCY, "--device cuda")
    _assert_one_line(runner.invoke(app, ["finetune", str(data), "-o", str(out), "--mixed-precision", "fp16"]),
                     EXIT_USAGE, "--mixed-precision fp16")
    assert not out.exists()


@no_gpu
def test_run_on_auto_reads_a_file_on_the_cpu(tmp_path):
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "invoice.pdf"
    result = CliRunner().invoke(app, ["run", str(example), "--device", "auto", "-o", str(tmp_path / "out.json")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out.json").is_file()
