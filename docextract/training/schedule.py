"""The learning-rate schedule: linear warmup to the peak, then linear decay to a floor.

With ``floor=0`` this is exactly ``transformers.get_linear_schedule_with_warmup`` (the first recipes). A
floor above 0 keeps the model learning to the last epoch: on FUNSD the first recipe's best epoch was its last,
at a learning rate decayed to zero, so the schedule, not the data, had stopped it. With ``--patience`` the
epoch count is only a cap, and a run that early-stops never reaches the bottom of its decay anyway.
"""

from __future__ import annotations

from functools import partial

from torch.optim import Optimizer
from torch.optim.lr_scheduler import LambdaLR


def lr_factor(step: int, *, warmup_steps: int, total_steps: int, floor: float) -> float:
    """The multiplier of the peak learning rate after ``step`` optimizer steps."""
    if step < warmup_steps:
        return step / max(1, warmup_steps)
    decay = max(0.0, (total_steps - step) / max(1, total_steps - warmup_steps))
    return floor + (1.0 - floor) * decay


def warmup_linear_schedule(optimizer: Optimizer, warmup_steps: int, total_steps: int, floor: float = 0.0) -> LambdaLR:
    """A LambdaLR (its state dict is the same as Hugging Face's linear schedule's: resume is unchanged)."""
    if not 0.0 <= floor <= 1.0:
        raise ValueError(f"the learning-rate floor is a fraction of the peak, 0..1, got {floor}")
    return LambdaLR(optimizer, partial(lr_factor, warmup_steps=warmup_steps, total_steps=total_steps, floor=floor))
