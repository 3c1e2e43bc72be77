"""Where a model runs (``--device auto|cpu|cuda|mps``) and in which precision it trains (``--mixed-precision``).

``auto`` takes a CUDA GPU when torch sees one, then Apple's MPS, else the CPU. Naming a GPU that is not there
is an error the user can act on (exit 3, like any missing dependency), never a silent fall-back to the CPU:
a recipe timed or budgeted for a GPU must not run for days on a CPU instead.

Mixed precision is autocast on GPUs: bf16 where the GPU supports it, else fp16 (with gradient scaling, see
``training/loop.py``). The CPU trains in fp32: bf16 autocast on CPUs without AMX is slower, not faster.
"""

from __future__ import annotations

import torch

from docextract.errors import MissingDependencyError, UsageError

DEVICES = ("auto", "cpu", "cuda", "mps")
MIXED_PRECISIONS = ("auto", "no", "bf16", "fp16")
_DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}


def _mps_available() -> bool:
    backend = getattr(torch.backends, "mps", None)
    return bool(backend is not None and backend.is_available())


def resolve_device(choice: str, local_rank: int = 0) -> torch.device:
    """The torch device for ``--device CHOICE``; ``local_rank`` picks this process's GPU under torchrun."""
    if choice not in DEVICES:
        raise UsageError(f"--device must be one of {', '.join(DEVICES)}, got {choice!r}")
    if choice == "auto":
        choice = "cuda" if torch.cuda.is_available() else "mps" if _mps_available() else "cpu"
    if choice == "cuda":
        if not torch.cuda.is_available():
            why = ("this torch build has no CUDA support (torch " + torch.__version__ + "; install a CUDA build of "
                   "torch==" + torch.__version__.split("+")[0] + ")") if torch.version.cuda is None else \
                "torch sees no CUDA GPU (check the driver and CUDA_VISIBLE_DEVICES)"
            raise MissingDependencyError(f"--device cuda: {why}; --device cpu or auto runs on the CPU",
                                         code="MISSING_DEPENDENCY")
        if local_rank >= torch.cuda.device_count():
            raise MissingDependencyError(
                f"--device cuda: process {local_rank} of this machine has no GPU of its own "
                f"({torch.cuda.device_count()} visible); start at most that many processes per machine",
                code="MISSING_DEPENDENCY")
        return torch.device("cuda", local_rank)
    if choice == "mps":
        if not _mps_available():
            raise MissingDependencyError("--device mps: this machine or torch build has no Apple MPS backend; "
                                         "--device cpu or auto runs on the CPU", code="MISSING_DEPENDENCY")
        return torch.device("mps")
    return torch.device("cpu")


def autocast_dtype(choice: str, device: torch.device) -> torch.dtype | None:
    """The autocast dtype for ``--mixed-precision CHOICE`` on ``device``; None trains in fp32."""
    if choice not in MIXED_PRECISIONS:
        raise UsageError(f"--mixed-precision must be one of {', '.join(MIXED_PRECISIONS)}, got {choice!r}")
    if choice == "no":
        return None
    if device.type == "cpu":
        if choice == "auto":
            return None
        raise UsageError(f"--mixed-precision {choice} runs on a GPU (--device cuda or mps); "
                         "on the CPU docextract trains in fp32 (--mixed-precision no or auto)")
    if choice == "auto":
        if device.type == "cuda":
            return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        return None  # MPS: fp32 unless asked (its autocast covers fewer operations)
    if choice == "bf16" and device.type == "cuda" and not torch.cuda.is_bf16_supported():
        raise UsageError("--mixed-precision bf16: this GPU has no bf16 support (pre-Ampere); use fp16")
    return _DTYPES[choice]


def model_device(model) -> torch.device:
    """The device a model's weights are on (the CPU for a model without torch parameters: ONNX Runtime's)."""
    first = next(iter(model.parameters()), None)
    return torch.device("cpu") if first is None else first.device
