"""Entity-tag loss weighting (long contracts: ~1% of words are values)."""

import torch
import torch.nn.functional as F

from docextract.modeling import from_preset


def _batch():
    torch.manual_seed(0)
    input_ids = torch.randint(1000, 2000, (2, 12))
    labels = torch.zeros(2, 12, dtype=torch.long)
    labels[0, 3] = 1
    labels[1, 5:7] = 2
    labels[:, 0] = -100
    return dict(input_ids=input_ids, attention_mask=torch.ones_like(input_ids),
                bbox=torch.zeros(2, 12, 4, dtype=torch.long), labels=labels)


def test_weight_one_is_plain_cross_entropy_and_a_weight_raises_the_entity_share():
    torch.manual_seed(0)
    model = from_preset("layoutlm", num_labels=3, num_hidden_layers=1).eval()
    batch = _batch()
    out = model(**batch)
    plain = F.cross_entropy(out.logits.view(-1, 3), batch["labels"].view(-1), ignore_index=-100)
    assert torch.equal(out.loss, plain)

    model.config.entity_loss_weight = 10.0
    weighted = model(**batch).loss
    per_token = F.cross_entropy(out.logits.view(-1, 3), batch["labels"].view(-1), ignore_index=-100, reduction="none")
    labels = batch["labels"].view(-1)
    kept = labels != -100
    w = torch.where(labels[kept] == 0, 1.0, 10.0)
    assert torch.allclose(weighted, (per_token[kept] * w).sum() / w.sum())
