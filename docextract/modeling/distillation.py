"""Distillation: a linear-attention encoder learns to compute what its softmax twin computes.

cosFormer and Linformer start from MiniLM's weights, which were trained for softmax attention. With the
kernel swapped, each layer's output drifts from what the next layer was trained to read, and a short CPU
finetune does not repair it (FUNSD 18 entity F1 for ``layout-cosformer`` where the softmax presets reach
47-56). Distillation repairs it without labels: the *teacher* is the same encoder with softmax attention and
the student's starting weights (for a preset: MiniLM's text encoder), frozen; the student is trained so that
every layer's output matches the teacher's on the same inputs (TinyBERT's hidden-state loss). It then starts
finetuning from what the text encoder already computes.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import torch
from transformers.modeling_outputs import ModelOutput

from docextract.modeling.config import LayoutConfig
from docextract.modeling.encoder import LayoutEncoder, LayoutPreTrainedModel


def softmax_twin(student: LayoutEncoder) -> LayoutEncoder:
    """A frozen copy of ``student`` with softmax attention: same embeddings, projections and feed-forwards;
    the student's extra attention parameters (cosFormer's ``w_o``, Linformer's projections) have no twin."""
    config = copy.deepcopy(student.config)
    config.attention = "softmax"
    teacher = LayoutEncoder(config)
    missing, unexpected = teacher.load_state_dict(student.state_dict(), strict=False)
    extra = {".w_o.", ".proj_k", ".proj_v", ".global_gate"}
    if missing or any(not any(part in name for part in extra) for name in unexpected):
        raise ValueError(f"the softmax twin does not fit the student: missing {missing}, unexpected {unexpected}")
    teacher.eval().requires_grad_(False)
    return teacher


def layer_matching_loss(student: list[torch.Tensor], teacher: list[torch.Tensor],
                        attention_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean over layers and real tokens of the relative squared error ``|s - t|^2 / |t|^2`` of each token's
    hidden vector, and the same per layer (L,). Relative, so every layer counts alike whatever its scale."""
    mask = attention_mask.to(torch.float32)  # (B, S)
    per_layer = []
    for s, t in zip(student, teacher):
        error = (s.float() - t.float()).pow(2).sum(-1) / t.float().pow(2).sum(-1).clamp(min=1e-6)  # (B, S)
        per_layer.append((error * mask).sum() / mask.sum().clamp(min=1))
    per_layer = torch.stack(per_layer)  # (L,)
    return per_layer.mean(), per_layer


def token_cosine(student: torch.Tensor, teacher: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """Mean cosine similarity of the two last hidden states over real tokens (a scalar)."""
    mask = attention_mask.to(torch.float32)
    cosine = torch.nn.functional.cosine_similarity(student.float(), teacher.float(), dim=-1)  # (B, S)
    return (cosine * mask).sum() / mask.sum().clamp(min=1)


@dataclass
class DistillationOutput(ModelOutput):
    loss: torch.Tensor | None = None  # mean relative error over layers
    layer_errors: torch.Tensor | None = None  # (L,)
    cosine: torch.Tensor | None = None  # last layer, student vs teacher


class LayoutForDistillation(LayoutPreTrainedModel):
    """The student encoder (``layout``, saved like every docextract model, so ``finetune --model`` keeps it) and
    a frozen teacher attached with :meth:`attach_teacher`, which is neither trained nor saved."""

    def __init__(self, config: LayoutConfig):
        super().__init__(config)
        self.layout = LayoutEncoder(config)
        self.post_init()

    def attach_teacher(self, teacher: LayoutEncoder) -> None:
        # Kept outside nn.Module's registry: not in parameters(), state_dict() or DDP's gradient exchange.
        self.__dict__["_teacher"] = teacher.eval().requires_grad_(False)

    @property
    def teacher(self) -> LayoutEncoder:
        teacher = self.__dict__.get("_teacher")
        if teacher is None:
            raise RuntimeError("no teacher attached: call attach_teacher(softmax_twin(model.layout)) first")
        return teacher

    def forward(self, input_ids, attention_mask=None, bbox=None, page_ids=None, position_ids=None,
                **unused) -> DistillationOutput:
        """The same inputs through student and teacher; ``labels`` and other training keys are ignored."""
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        teacher = self.teacher
        if next(teacher.parameters()).device != input_ids.device:
            teacher.to(input_ids.device)
        student_layers: list[torch.Tensor] = []
        self.layout.encode(input_ids, attention_mask, bbox, page_ids, position_ids, layer_outputs=student_layers)
        teacher_layers: list[torch.Tensor] = []
        with torch.no_grad():
            teacher.encode(input_ids, attention_mask, bbox, page_ids, position_ids, layer_outputs=teacher_layers)
        loss, per_layer = layer_matching_loss(student_layers, teacher_layers, attention_mask)
        cosine = token_cosine(student_layers[-1].detach(), teacher_layers[-1], attention_mask)
        return DistillationOutput(loss=loss, layer_errors=per_layer.detach(), cosine=cosine)
