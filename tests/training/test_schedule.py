"""The learning-rate schedule: Hugging Face's linear warmup + decay, optionally ending at a floor above zero."""

import pytest
import torch
from transformers import get_linear_schedule_with_warmup

from docextract.training.schedule import lr_factor, warmup_linear_schedule


def _factors(scheduler, optimizer, steps):
    out = []
    for _ in range(steps):
        out.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return out


def _optimizer():
    return torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)


def test_floor_zero_is_the_linear_schedule_of_the_first_recipes():
    ours, theirs = _optimizer(), _optimizer()
    a = _factors(warmup_linear_schedule(ours, 10, 100), ours, 101)
    b = _factors(get_linear_schedule_with_warmup(theirs, 10, 100), theirs, 101)
    assert a == pytest.approx(b, abs=1e-12)


def test_a_floor_keeps_the_rate_above_zero_to_the_end():
    factors = [lr_factor(s, warmup_steps=10, total_steps=100, floor=0.1) for s in range(101)]
    assert factors[0] == 0 and factors[5] == pytest.approx(0.5) and factors[10] == pytest.approx(1.0)
    assert factors[100] == pytest.approx(0.1)
    assert min(factors[10:]) == pytest.approx(0.1)
    assert all(a >= b for a, b in zip(factors[10:], factors[11:]))  # decays, never rises again
    assert factors[55] == pytest.approx(0.1 + 0.9 * 0.5)


def test_a_floor_outside_0_1_is_refused():
    with pytest.raises(ValueError, match="fraction"):
        warmup_linear_schedule(_optimizer(), 1, 10, floor=1.5)
