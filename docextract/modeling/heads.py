"""Task heads on the layout encoder: token classification, and pre-training (masked LM + 1-LOP)."""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn
from transformers.activations import ACT2FN
from transformers.modeling_outputs import ModelOutput, TokenClassifierOutput

from docextract.modeling.batching import IGNORE_INDEX
from docextract.modeling.config import LayoutConfig
from docextract.modeling.encoder import LayoutEncoder, LayoutPreTrainedModel
from docextract.modeling.student import loss_against_teacher



class LayoutForTokenClassification(LayoutPreTrainedModel):
    """Dropout then ``Linear(hidden -> num_labels)`` on every token; cross-entropy ignoring -100."""

    def __init__(self, config: LayoutConfig):
        super().__init__(config)
        self.num_labels = config.num_labels
        self.layout = LayoutEncoder(config)
        dropout = config.classifier_dropout if config.classifier_dropout is not None else config.hidden_dropout_prob
        self.dropout = nn.Dropout(dropout)
        self.classifier = nn.Linear(config.hidden_size, config.num_labels)
        self.post_init()

    def attach_teacher(self, teacher: "LayoutForTokenClassification", weight: float) -> None:
        """Learn from ``teacher`` too while training with labels (modeling/student.py): the loss becomes
        ``(1 - weight) * label loss + weight * (tag distribution + hidden-state loss)``. The teacher is kept
        outside nn.Module's registry: never trained, saved or exchanged between processes."""
        self.__dict__["_teacher"] = (teacher.eval().requires_grad_(False), weight)

    def forward(self, input_ids, attention_mask=None, bbox=None, page_ids=None, position_ids=None,
                labels=None, open_tags=None, **kwargs) -> TokenClassifierOutput:
        teacher, weight = self.__dict__.get("_teacher") or (None, 0.0)
        teaching = teacher is not None and labels is not None and self.training
        layers: list[torch.Tensor] = []  # every layer's output, kept while a teacher teaches
        if teaching:
            hidden = self.layout.encode(input_ids, attention_mask, bbox, page_ids, position_ids,
                                        layer_outputs=layers)
        else:
            hidden = self.layout(input_ids, attention_mask, bbox, page_ids, position_ids, **kwargs).last_hidden_state
        logits = self.classifier(self.dropout(hidden))  # (B, S, L)
        loss = None
        if labels is not None and open_tags is not None and bool(open_tags.any()):
            loss = partial_label_loss(logits, labels, open_tags, self._tag_weights(logits))
        elif labels is not None:
            loss = F.cross_entropy(logits.view(-1, self.num_labels), labels.view(-1), ignore_index=IGNORE_INDEX,
                                   weight=self._tag_weights(logits))
        if teaching:
            loss = (1.0 - weight) * loss + weight * loss_against_teacher(
                teacher, logits, layers, labels, input_ids, attention_mask, bbox, page_ids, position_ids)
        return TokenClassifierOutput(loss=loss, logits=logits)

    def _tag_weights(self, logits: torch.Tensor) -> torch.Tensor | None:
        """``(L,)`` loss weights: 1 for tag 0 (O), ``config.entity_loss_weight`` for entity tags. On long
        contracts ~1% of words are values, and unweighted training settles on tagging everything O."""
        weight = float(getattr(self.config, "entity_loss_weight", 1.0) or 1.0)
        if weight == 1.0:
            return None
        weights = torch.full((self.num_labels,), weight, dtype=logits.dtype, device=logits.device)
        weights[0] = 1.0
        return weights


def partial_label_loss(logits: torch.Tensor, labels: torch.Tensor, open_tags: torch.Tensor,
                       weight: torch.Tensor | None = None) -> torch.Tensor:
    """Cross-entropy where a word labelled O (tag 0) in a partly annotated document may be O *or* any tag in
    its window's ``open_tags``: the loss of such a word is ``-log(p(O) + sum of p(open tags))``.

    A source that annotates only some fields (receipts: company, date, address, total; an e-invoice: the
    fields its XML states and the page prints) says nothing about the others, so its unlabelled words must
    not teach the model that they are not, say, an invoice number. Words with an entity tag keep the plain
    loss. ``logits`` (B, S, L), ``labels`` (B, S) with IGNORE_INDEX, ``open_tags`` (B, L) bool; ``weight``
    (L,) weighs each word by its label's tag as ``F.cross_entropy`` does. Equals ``F.cross_entropy`` when no
    tag is open.
    """
    log_probs = F.log_softmax(logits.float(), dim=-1)  # (B, S, L)
    valid = labels != IGNORE_INDEX  # (B, S)
    targets = labels.clamp(min=0)
    target_log_prob = log_probs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)  # (B, S)
    allowed = open_tags.clone()
    allowed[:, 0] = True  # O itself
    outside_log_prob = torch.logsumexp(log_probs.masked_fill(~allowed.unsqueeze(1), float("-inf")), dim=-1)  # (B, S)
    token_log_prob = torch.where(targets == 0, outside_log_prob, target_log_prob)
    token_weight = weight[targets] if weight is not None else torch.ones_like(token_log_prob)
    token_weight = token_weight * valid
    return -(token_log_prob * token_weight).sum() / token_weight.sum().clamp(min=1e-12)


class MaskedLMHead(nn.Module):
    """BERT's MLM head: dense, activation, LayerNorm, then the decoder, whose weight is the input word
    embedding matrix (MiniLM ships no MLM head; sharing the embeddings starts it from a sensible point)."""

    def __init__(self, config: LayoutConfig):
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.act = ACT2FN[config.hidden_act]
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.bias = nn.Parameter(torch.zeros(config.vocab_size))

    def forward(self, hidden: torch.Tensor, word_embeddings: torch.Tensor) -> torch.Tensor:  # (N, D) -> (N, V)
        return F.linear(self.LayerNorm(self.act(self.dense(hidden))), word_embeddings, self.bias)


@dataclass
class LayoutPretrainingOutput(ModelOutput):
    loss: torch.Tensor | None = None
    mlm_loss: torch.Tensor | None = None
    lop_loss: torch.Tensor | None = None
    mlm_logits: torch.Tensor | None = None  # (N_masked, V) with labels, else (B, S, V)
    lop_logits: torch.Tensor | None = None  # (B, S, lop_classes)


class LayoutForPretraining(LayoutPreTrainedModel):
    """Masked LM on the masked positions only, plus DocPolarBERT's 1-LOP head (local order 0..10 of tokens
    whose 1D position was hidden); ``loss = mlm + lop_loss_weight * lop`` (0.5, official code, docs/models.md §2a)."""

    def __init__(self, config: LayoutConfig):
        super().__init__(config)
        self.layout = LayoutEncoder(config)
        self.mlm_head = MaskedLMHead(config)
        self.lop_head = nn.Linear(config.hidden_size, config.lop_classes)
        self.post_init()

    def forward(self, input_ids, attention_mask=None, bbox=None, page_ids=None, position_ids=None,
                labels=None, lop_labels=None, position_mask=None, **kwargs) -> LayoutPretrainingOutput:
        """labels (B, S): original token ids at masked positions, -100 elsewhere; lop_labels (B, S): local
        order class at tokens whose position is hidden (``position_mask``), -100 elsewhere."""
        hidden = self.layout(
            input_ids, attention_mask, bbox, page_ids, position_ids, position_mask=position_mask, **kwargs
        ).last_hidden_state  # (B, S, D)
        word_embeddings = self.layout.embeddings.word_embeddings.weight  # (V, D)
        if labels is not None:
            masked = labels != IGNORE_INDEX  # (B, S)
            mlm_logits = self.mlm_head(hidden[masked], word_embeddings)  # (N, V): the head runs on masked tokens only
            mlm_loss = F.cross_entropy(mlm_logits, labels[masked]) if masked.any() else hidden.sum() * 0
        else:
            mlm_logits, mlm_loss = self.mlm_head(hidden, word_embeddings), None  # (B, S, V)
        lop_logits = self.lop_head(hidden)  # (B, S, C)
        lop_loss = None
        if lop_labels is not None:
            if (lop_labels != IGNORE_INDEX).any():
                lop_loss = F.cross_entropy(lop_logits.view(-1, lop_logits.shape[-1]), lop_labels.view(-1), ignore_index=IGNORE_INDEX)
            else:
                lop_loss = lop_logits.sum() * 0
        loss = None
        if mlm_loss is not None or lop_loss is not None:
            loss = (mlm_loss if mlm_loss is not None else 0) + (
                self.config.lop_loss_weight * lop_loss if lop_loss is not None else 0
            )
        return LayoutPretrainingOutput(loss, mlm_loss, lop_loss, mlm_logits, lop_logits)


def _register_auto_classes() -> None:
    """Let transformers' Auto classes build docextract models from a saved config (``model_type``; the config
    class registers itself in :mod:`docextract.modeling.config`)."""
    from transformers import AutoModel, AutoModelForPreTraining, AutoModelForTokenClassification

    AutoModel.register(LayoutConfig, LayoutEncoder, exist_ok=True)
    AutoModelForTokenClassification.register(LayoutConfig, LayoutForTokenClassification, exist_ok=True)
    AutoModelForPreTraining.register(LayoutConfig, LayoutForPretraining, exist_ok=True)


_register_auto_classes()  # wherever the model classes are imported, the Auto classes know them
