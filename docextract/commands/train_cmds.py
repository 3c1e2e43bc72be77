"""`docextract finetune | pretrain | evaluate`: training and measuring models from the shell."""

from __future__ import annotations

from docextract.commands.common import fail
from docextract.errors import UsageError

_NOT_YET = "not implemented yet (tracked in issue 4: train and measure from the shell)"


def finetune() -> None:
    """[Not implemented yet] Finetune a layout model on labelled documents."""
    raise fail(UsageError(f"finetune is {_NOT_YET}"))


def pretrain() -> None:
    """[Not implemented yet] Pretrain a layout model on unlabelled documents (masked LM + 1D local order)."""
    raise fail(UsageError(f"pretrain is {_NOT_YET}"))


def evaluate() -> None:
    """[Not implemented yet] Measure a model on labelled documents (seqeval entity F1)."""
    raise fail(UsageError(f"evaluate is {_NOT_YET}"))
