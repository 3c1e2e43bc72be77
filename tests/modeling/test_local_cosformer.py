"""layout-cosformer-local: softmax inside 512-token blocks plus a gated global cosFormer term. It starts as MiniLM
reading each block, and its gate opens in training."""

import torch

from docextract.modeling.attention import block_local_attention
from docextract.modeling.presets import from_preset

TWO_LAYERS = {"num_hidden_layers": 2, "hidden_dropout_prob": 0.0}


def _boxes(size: int) -> torch.Tensor:
    torch.manual_seed(1)
    bbox = torch.randint(0, 500, (1, size, 4))
    bbox[..., 2:] += bbox[..., :2]
    return bbox


def _pair(window: int):
    """The hybrid and the softmax layoutlm preset with the same weights (no page embedding in either)."""
    torch.manual_seed(0)
    local = from_preset("layout-cosformer-local", task="encoder", local_window=window, **TWO_LAYERS).eval()
    with torch.no_grad():
        local.embeddings.page_embeddings.weight.zero_()
    softmax = from_preset("layoutlm", task="encoder", **TWO_LAYERS).eval()
    shapes = {k: v.shape for k, v in softmax.state_dict().items()}
    softmax.load_state_dict({k: v[:shapes[k][0]] for k, v in local.state_dict().items() if k in shapes})  # 512 of 4096 rows
    return local, softmax


def test_at_the_start_each_block_reads_as_the_softmax_model_reads_it():
    local, softmax = _pair(window=64)
    ids = torch.randint(1000, 20000, (1, 150))  # blocks 0-63, 64-127, 128-149
    bbox = _boxes(150)
    with torch.no_grad():
        whole = local.encode(ids, bbox=bbox)
        for start, end in ((0, 64), (64, 128), (128, 150)):
            block = softmax.encode(ids[:, start:end], bbox=bbox[:, start:end],
                                   position_ids=torch.arange(start, end).unsqueeze(0))
            torch.testing.assert_close(whole[:, start:end], block, rtol=1e-4, atol=1e-4)


def test_the_global_gate_opens_in_training_and_then_carries_context_across_blocks():
    local, _ = _pair(window=32)
    local.train()
    ids = torch.randint(1000, 20000, (1, 64))
    bbox = _boxes(64)
    hidden = local.encode(ids, bbox=bbox)
    hidden[:, :32].sum().backward()
    gates = [m.global_gate for m in local.modules() if hasattr(m, "global_gate")]
    assert gates and all(g.grad is not None and g.grad.abs().sum() > 0 for g in gates)
    with torch.no_grad():
        for g in gates:
            g.fill_(0.05)
        local.eval()
        before = local.encode(ids, bbox=bbox)[:, :32]
        changed = ids.clone()
        changed[:, 40:60] = torch.randint(1000, 20000, (1, 20))  # only the second block's words
        after = local.encode(changed, bbox=bbox)[:, :32]
    assert not torch.allclose(before, after, atol=1e-5)  # the first block now sees the second


def test_block_attention_ignores_padding():
    torch.manual_seed(0)
    q, k, v = (torch.randn(2, 3, 10, 4) for _ in range(3))
    mask = torch.ones(2, 10, dtype=torch.long)
    mask[1, 7:] = 0
    out = block_local_attention(q, k, v, mask, window=4)
    noisy = v.clone()
    noisy[1, :, 7:] = 100.0  # padded values must not reach real tokens
    torch.testing.assert_close(block_local_attention(q, k, noisy, mask, window=4)[1, :, :7], out[1, :, :7])


def test_a_windowed_tagger_made_long_range_tags_each_block_as_it_tagged_that_window():
    """presets.long_range_from: the windowed model's weights and head, gate and page embeddings at 0, positions
    restarting in each block, so every block starts tagged exactly as the windowed model tags it alone."""
    from docextract.modeling.presets import long_range_from

    torch.manual_seed(0)
    windowed = from_preset("lspe-layoutlm", num_labels=5, local_window=64, **TWO_LAYERS).eval()  # blocks of 64
    long_range = long_range_from(windowed).eval()
    ids = torch.randint(1000, 20000, (1, 150))
    bbox = _boxes(150)
    pages = torch.tensor([[0] * 100 + [1] * 50])
    with torch.no_grad():
        whole = long_range(ids, bbox=bbox, page_ids=pages).logits
        for start, end in ((0, 64), (64, 128), (128, 150)):
            alone = windowed(ids[:, start:end], bbox=bbox[:, start:end]).logits
            torch.testing.assert_close(whole[:, start:end], alone, rtol=1e-4, atol=1e-4)
    assert long_range.config.attention == "local_cosformer" and long_range.config.page_embeddings


def test_block_attention_computed_a_few_blocks_at_a_time_equals_each_block_alone():
    """Blocks go through SDPA LOCAL_BLOCKS_PER_CALL at a time (memory), and each is still attention over itself."""
    import torch.nn.functional as F

    from docextract.modeling.attention import LOCAL_BLOCKS_PER_CALL

    torch.manual_seed(0)
    blocks, window = 2 * LOCAL_BLOCKS_PER_CALL + 1, 4
    q, k, v = (torch.randn(1, 2, blocks * window - 3, 8) for _ in range(3))
    mask = torch.ones(1, blocks * window - 3, dtype=torch.long)
    out = block_local_attention(q, k, v, mask, window=window)
    for n in range(blocks - 1):  # the full blocks
        span = slice(n * window, (n + 1) * window)
        alone = F.scaled_dot_product_attention(q[:, :, span], k[:, :, span], v[:, :, span])
        torch.testing.assert_close(out[:, :, span], alone)
