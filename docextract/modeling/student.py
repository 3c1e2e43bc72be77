"""A smaller model taught by a trained one: fewer layers, learning the teacher's tags and hidden states.

The student starts as the teacher with only some of its layers (evenly spaced, as DistilBERT starts from every
other BERT layer), the embeddings and the classifier kept. During finetuning each batch also runs through the
frozen teacher, and the student's loss adds (``finetune --student-layers``):

* the teacher's tag distribution on every labelled token, softened by ``TEMPERATURE`` (Hinton et al., 2015;
  ``T^2`` keeps its gradients on the scale of the label loss), which also teaches the fields a partly labelled
  document (a receipt, an e-invoice whose XML omits what its page prints) leaves open;
* each student layer's output against the output of the last teacher layer it stands in for (TinyBERT's
  hidden-state loss, relative: :func:`docextract.modeling.distillation.layer_matching_loss`).

Nothing of the teacher is saved with the student: the student's folder is an ordinary model with fewer layers.
"""

from __future__ import annotations

import copy

import torch
import torch.nn.functional as F

from docextract.modeling.batching import IGNORE_INDEX
from docextract.modeling.distillation import layer_matching_loss

TEMPERATURE = 2.0


def kept_layers(teacher_layers: int, student_layers: int) -> list[int]:
    """The teacher layers a student of ``student_layers`` starts from: evenly spaced from the first (6 -> 3:
    0, 2, 4)."""
    if not 1 <= student_layers <= teacher_layers:
        raise ValueError(f"a student has 1 to {teacher_layers} layers, not {student_layers}")
    return [i * teacher_layers // student_layers for i in range(student_layers)]


def matched_layers(teacher_layers: int, student_layers: int) -> list[int]:
    """The teacher layer whose output each student layer learns: the last of the teacher layers it replaces (6 -> 3:
    1, 3, 5), so the student's last layer learns the teacher's last, which the shared classifier reads."""
    starts = kept_layers(teacher_layers, student_layers) + [teacher_layers]
    return [end - 1 for end in starts[1:]]


def student_of(teacher, student_layers: int):
    """A copy of the token-classification ``teacher`` with ``student_layers`` of its layers (:func:`kept_layers`)."""
    student = copy.deepcopy(teacher)
    layers = student.layout.encoder.layer
    keep = kept_layers(len(layers), student_layers)
    student.layout.encoder.layer = torch.nn.ModuleList(layers[i] for i in keep)
    student.config.num_hidden_layers = student_layers
    return student


def teaching_loss(student_logits: torch.Tensor, teacher_logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """``T^2 * KL(teacher || student)`` of the tag distributions at temperature ``T``, mean over the labelled
    tokens (a word's first token: what inference reads)."""
    taught = labels != IGNORE_INDEX  # (B, S)
    if not bool(taught.any()):
        return student_logits.sum() * 0.0
    student = F.log_softmax(student_logits[taught].float() / TEMPERATURE, dim=-1)
    teacher = F.log_softmax(teacher_logits[taught].float() / TEMPERATURE, dim=-1)
    return F.kl_div(student, teacher, log_target=True, reduction="batchmean") * TEMPERATURE ** 2


def hidden_loss(student_layers: list[torch.Tensor], teacher_layers: list[torch.Tensor],
                attention_mask: torch.Tensor) -> torch.Tensor:
    """Each student layer's output against its matched teacher layer's (:func:`matched_layers`)."""
    matched = matched_layers(len(teacher_layers), len(student_layers))
    loss, _ = layer_matching_loss(student_layers, [teacher_layers[i] for i in matched], attention_mask)
    return loss


def loss_against_teacher(teacher, logits: torch.Tensor, layers: list[torch.Tensor], labels: torch.Tensor,
                         input_ids: torch.Tensor, attention_mask: torch.Tensor | None, bbox: torch.Tensor | None,
                         page_ids: torch.Tensor | None, position_ids: torch.Tensor | None) -> torch.Tensor:
    """The student's loss against the frozen ``teacher`` on the same inputs: the tag distributions plus the hidden
    states (``logits`` and every student layer's output ``layers``, from the student's forward)."""
    if next(teacher.parameters()).device != input_ids.device:
        teacher.to(input_ids.device)
    if attention_mask is None:
        attention_mask = torch.ones_like(input_ids)
    teacher_layers: list[torch.Tensor] = []
    with torch.no_grad():
        hidden = teacher.layout.encode(input_ids, attention_mask, bbox, page_ids, position_ids,
                                       layer_outputs=teacher_layers)
        teacher_logits = teacher.classifier(hidden)
    return teaching_loss(logits, teacher_logits, labels) + hidden_loss(layers, teacher_layers, attention_mask)
