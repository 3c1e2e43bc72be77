"""A preset starts where MiniLM was: fresh layout parts must not drown the pretrained text encoder."""

import torch

from docextract.modeling import from_preset
from docextract.modeling.presets import _minilm_position_table


def test_lspe_positions_start_as_minilm_positions_and_2d_layout_as_a_no_op():
    model = from_preset("lspe-layoutlm", num_labels=3)
    embeddings = model.layout.embeddings
    table = _minilm_position_table()
    with torch.no_grad():
        fitted = embeddings.position_encoder(torch.arange(512))
        assert float((fitted - table).norm() / table.norm()) < 0.15
        bbox = torch.randint(0, 1000, (1, 7, 4)).sort(-1).values[..., [0, 1, 2, 3]]
        assert torch.count_nonzero(embeddings.layout_2d(bbox)) == 0
    # it still learns: the zeroed output layer gets gradients
    out = embeddings.layout_2d(bbox)
    loss = (out * torch.randn_like(out)).sum()
    loss.backward()
    assert embeddings.layout_2d.x.lspe.fc2.weight.grad.abs().sum() > 0


def test_lspe_inference_table_equals_the_training_path_and_follows_weight_changes():
    from docextract.modeling.positions import LspeEncoding

    torch.manual_seed(0)
    lspe = LspeEncoding(dim=16, ffn_dim=32, skip=True)
    values = torch.tensor([[0, 5, 999], [1000, 3, 3]])
    trained_path = lspe(values)  # grad enabled, training mode: the per-call FFN
    lspe.eval()
    with torch.no_grad():
        assert torch.allclose(lspe(values), trained_path, atol=1e-6)
        lspe.load_state_dict({k: v * 2 for k, v in lspe.state_dict().items()})
        fresh = lspe.table(torch.arange(1001))[values]
        assert torch.allclose(lspe(values), fresh, atol=1e-6)  # the cache was dropped with the old weights
        cached = lspe._cached_table
        lspe.eval()  # inference calls eval() for every document: the table must not be recomputed each time
        lspe(values)
        assert lspe._cached_table is cached
        lspe.fc2.bias.add_(1.0)  # an in-place change (as an optimizer step makes)
        assert torch.allclose(lspe(values), fresh + 1.0, atol=1e-5)
