"""Each paper idea as a small function, checked against docs/models.md's vectors and its slow reference twin."""

from __future__ import annotations

import math

import pytest
import torch

from docextract.modeling.cosformer import (
    cos1d_weights,
    cosformer_attention,
    cosformer_attention_reference,
    reweight_features,
    select_by_magnitude,
)
from docextract.modeling.gaussian import circular_difference, gaussian_polar_bias, polar_coordinates
from docextract.modeling.kernels2d import cross_kernel, squircle_kernel
from docextract.modeling.polar import (
    ANGLE_ABOVE,
    ANGLE_BELOW,
    ANGLE_LEFT,
    ANGLE_PAD,
    ANGLE_RIGHT,
    ANGLE_SELF,
    PolarShawTables,
    centre_distances,
    distance_quantile_buckets,
    polar_angle_buckets,
    shaw_bias,
    shaw_bias_reference,
    sorted_quantiles,
    symmetric_quantiles,
    t5_relative_bucket,
)
from docextract.modeling.positions import LspeEncoding, sinusoid
from tests.modeling_helpers import ATOL


def buckets_of(values, **kwargs):
    return t5_relative_bucket(torch.tensor(values), **kwargs).tolist()


def test_t5_buckets_match_the_spec_boundary_vectors():
    # docs/models.md §0.2, 1D N=32 M=128: per side 0..7 exact, 8-11 -> 8, 12-15 -> 9, 16-22 -> 10, 23-31 -> 11, ... >=91 -> 15
    assert buckets_of([0, 7, 8, 11, 12, 22, 23, 31, 32, 45, 46, 63, 64, 90, 91, 5000], num_buckets=32, max_distance=128) == [
        0, 23, 24, 24, 25, 26, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31]
    assert buckets_of([-23, -91, -1], num_buckets=32, max_distance=128) == [11, 15, 1]
    # 2D N=64 M=256: exact 0..15, 16-19 -> 16, 27-31 -> 19, 182-215 -> 30, >=216 -> 31 (negative side)
    assert buckets_of([-15, -16, -19, -27, -31, -182, -215, -216], num_buckets=64, max_distance=256) == [
        15, 16, 16, 19, 19, 30, 30, 31]


def test_one_sided_buckets_use_every_bucket_for_distances():
    got = buckets_of([0, 1, 2, 20, 200], num_buckets=4, max_distance=256, bidirectional=False)
    assert got == [0, 1, 2, 2, 3]  # 2 + floor(ln(n/2) / ln(128) * 2): 3 from n = 182 on


def toy_page() -> torch.Tensor:
    """Query box 0 in the middle; keys right/left on its line, above/below in its column, one up-right
    diagonal, one sub-token sharing box 0, one [CLS]-style point box. (1, 8, 4)."""
    return torch.tensor([[
        [400, 400, 500, 420],  # 0 query
        [600, 405, 680, 425],  # 1 right, same line
        [200, 398, 300, 418],  # 2 left, same line
        [410, 200, 490, 220],  # 3 above, same column
        [420, 700, 480, 720],  # 4 below, same column
        [700, 200, 780, 240],  # 5 up and to the right (angle ~37 deg: first sector)
        [400, 400, 500, 420],  # 6 another sub-token of box 0
        [0, 0, 0, 0],  # 7 special token
    ]])


def test_angle_buckets_on_a_toy_page():
    bbox = toy_page()
    valid = torch.tensor([[True] * 7 + [False]])
    row = polar_angle_buckets(bbox, valid)[0, 0].tolist()
    assert row == [ANGLE_SELF, ANGLE_RIGHT, ANGLE_LEFT, ANGLE_ABOVE, ANGLE_BELOW, 5, ANGLE_ABOVE, ANGLE_PAD]
    # from the box below, the query is above; from the right box it is to the left
    buckets = polar_angle_buckets(bbox, valid)[0]
    assert buckets[4, 0] == ANGLE_ABOVE and buckets[1, 0] == ANGLE_LEFT and buckets[5, 0] == 5 + 4  # 180-225 deg


def test_quantiles_interpolate_like_torch_quantile():
    values = torch.rand(1000)
    fractions = torch.linspace(0, 1, 5)
    torch.testing.assert_close(sorted_quantiles(values.sort().values, fractions), torch.quantile(values, fractions))


def test_distance_buckets_come_from_each_documents_own_quantiles():
    bbox = torch.randint(0, 400, (2, 10, 2))
    bbox = torch.cat((bbox, bbox + 20), -1)  # (2, 10, 4) real boxes
    bbox[1] = bbox[1] // 8  # the second page is tiny and dense
    valid = torch.ones(2, 10, dtype=torch.bool)
    pair_valid = valid.unsqueeze(2) & valid.unsqueeze(1)
    distances = centre_distances(bbox)
    together = distance_quantile_buckets(distances, pair_valid, bins=4)
    alone = distance_quantile_buckets(distances[:1], pair_valid[:1], bins=4)
    assert torch.equal(together[0], alone[0])
    assert together[0].diagonal().eq(0).all()  # rho = 0 is the minimum: bucket 0
    assert set(together[0].unique().tolist()) == {0, 1, 2, 3, 4}
    # the official code's batch-pooled quantiles would give the first page different buckets
    pooled = torch.quantile(distances[pair_valid], torch.linspace(0, 1, 5))
    pooled_buckets = torch.searchsorted(pooled, distances[0].contiguous(), side="left").clamp(max=4)
    assert not torch.equal(pooled_buckets.to(torch.uint8), together[0])
    # invalid pairs (a special token) get the padding bucket
    valid[0, 3] = False
    with_invalid = distance_quantile_buckets(distances, valid.unsqueeze(2) & valid.unsqueeze(1), bins=4)
    assert with_invalid[0, 3].eq(5).all() and with_invalid[0, :, 3].eq(5).all()


@pytest.mark.parametrize("valid_count", [0, 1, 2, 3, 7, 40])
def test_quantiles_from_half_the_pairs_equal_those_of_all_pairs(valid_count):
    torch.manual_seed(valid_count)
    bbox = torch.randint(0, 900, (1, 45, 2))
    bbox = torch.cat((bbox, bbox + torch.randint(0, 90, (1, 45, 2))), -1)
    bbox[0, 5:9] = bbox[0, 4]  # boxes with the same centre: zero distances off the diagonal
    valid = torch.zeros(1, 45, dtype=torch.bool)
    valid[0, torch.randperm(45)[:valid_count]] = True
    pair_valid = valid.unsqueeze(2) & valid.unsqueeze(1)
    distances = centre_distances(bbox)
    fractions = torch.linspace(0, 1, 5)
    half = symmetric_quantiles(distances[0], valid[0], fractions)
    if valid_count == 0:
        assert half is None
    else:
        assert torch.equal(half, sorted_quantiles(distances[0][pair_valid[0]].sort().values, fractions))
    assert torch.equal(distance_quantile_buckets(distances, pair_valid, 4, valid),
                       distance_quantile_buckets(distances, pair_valid, 4))


def test_the_padding_mask_folded_into_the_shaw_term_equals_the_mask_added_to_it():
    torch.manual_seed(0)
    tables = PolarShawTables(16, "quantile", 4, 256, "trainable", 32, 128)
    for table in (tables.distance_table, tables.angle_table, tables.rel1d_table):
        torch.nn.init.normal_(table)
    bbox = toy_page().repeat(2, 1, 1)
    mask = torch.ones(2, 8, dtype=torch.long)
    mask[1, 5:] = 0
    indices = tables.indices(bbox, mask)
    query = torch.randn(2, 3, 8, 16)
    minimum = torch.finfo(torch.float32).min
    additive = torch.zeros(2, 8).masked_fill(~mask.bool(), minimum)[:, None, None, :]
    folded = shaw_bias(query, tables.tables(), indices, mask_value=minimum)
    assert torch.equal(folded, additive + shaw_bias(query, tables.tables(), indices))
    assert folded[1, :, :, 5:].eq(minimum).all()
    with torch.autocast("cpu", dtype=torch.bfloat16):  # a half-precision bias still carries the fp32 mask
        half = shaw_bias(query, tables.tables(), indices, mask_value=minimum, mask_dtype=torch.float32)
        assert half.dtype == torch.float32
        assert torch.equal(half, additive + shaw_bias(query, tables.tables(), indices))


@pytest.mark.parametrize("scheme", ["quantile", "t5"])
def test_shaw_term_by_gather_equals_the_materialised_reference(scheme):
    torch.manual_seed(0)
    tables = PolarShawTables(16, scheme, 4, 256, "trainable", 32, 128)
    for table in (tables.distance_table, tables.angle_table, tables.rel1d_table):
        torch.nn.init.normal_(table)
    bbox = toy_page().repeat(2, 1, 1)
    mask = torch.ones(2, 8, dtype=torch.long)
    mask[1, 6:] = 0
    indices = tables.indices(bbox, mask)
    query = torch.randn(2, 3, 8, 16)
    table = tables.tables()
    fast = shaw_bias(query, table, indices)
    torch.testing.assert_close(fast, shaw_bias_reference(query, table, indices))
    # padding rows are constants: a pair with a special or pad token gets only the 1D term
    assert table.distance[-1].eq(0).all() and table.angle[-1].eq(0).all()
    rel1d_only = torch.einsum("bhid,ijd->bhij", query, table.rel1d[indices.rel1d[0, 0]])
    torch.testing.assert_close(fast[0, :, :, 7], rel1d_only[0, :, :, 7])


def test_gaussian_angle_difference_wraps_around_the_circle():
    eps = 0.01
    delta = circular_difference(torch.tensor(math.pi - eps), torch.tensor(-math.pi + eps))
    assert delta.item() == pytest.approx(2 * eps, abs=1e-6)


def test_gaussian_bias_is_zero_at_the_mean_and_bounded_by_alpha():
    rho = torch.tensor([[[0.3, 1.2]]])  # (1, 1, 2)
    theta = torch.tensor([[[0.5, -2.0]]])
    params = [torch.tensor([0.3]), torch.tensor([0.5]), torch.tensor([0.2]), torch.tensor([0.4])]
    bias = gaussian_polar_bias(rho, theta, *params, alpha=4.0)  # (1, 1, 1, 2)
    assert bias[0, 0, 0, 0].item() == pytest.approx(0.0, abs=1e-7)
    assert -4.0 <= bias[0, 0, 0, 1].item() < -3.0


@pytest.mark.parametrize("scheme", ["atan2_dx_dy", "atan_dy_dx"])
def test_polar_coordinates_follow_the_code_and_paper_conventions(scheme):
    x = torch.tensor([[0.5, 0.5, 0.7]])
    y = torch.tensor([[0.5, 0.8, 0.5]])  # key 1 straight below the query, key 2 to its right
    rho, theta = polar_coordinates(x, y, scheme)
    assert rho[0, 0, 1].item() == pytest.approx(0.3, abs=1e-6)
    below, right = theta[0, 0, 1].item(), theta[0, 0, 2].item()
    if scheme == "atan2_dx_dy":  # code: 0 = straight below, +pi/2 = right
        assert below == pytest.approx(0.0) and right == pytest.approx(math.pi / 2)
    else:  # paper: 0 = same row
        assert below == pytest.approx(math.pi / 2) and right == pytest.approx(0.0)


def test_squircle_and_cross_kernels_are_one_on_the_diagonal_and_within_zero_one():
    bbox = toy_page()[:, :7]
    for kernel in (squircle_kernel(bbox), cross_kernel(bbox)):
        assert torch.allclose(kernel[0].diagonal(), torch.ones(7))
        assert kernel.min() >= 0 and kernel.max() <= 1 + 1e-6
    assert (cross_kernel(bbox) >= squircle_kernel(bbox) - 1e-6).all()


def cosformer_inputs(pad_from: int = 7):
    torch.manual_seed(1)
    bbox = torch.randint(0, 500, (2, 10, 2))
    bbox = torch.cat((bbox, bbox + 30), -1)
    mask = torch.ones(2, 10, dtype=torch.long)
    mask[1, pad_from:] = 0
    phi_q = torch.relu(torch.randn(2, 3, 10, 8))
    phi_k = torch.relu(torch.randn(2, 3, 10, 8)) * mask[:, None, :, None]
    value = torch.randn(2, 3, 10, 8)
    return bbox, mask, phi_q, phi_k, value


@pytest.mark.parametrize("kind", ["cos1d", "squircle", "cross_sum", "none"])
def test_cosformer_linear_form_equals_its_quadratic_reference(kind):
    bbox, mask, phi_q, phi_k, value = cosformer_inputs()
    (weights,) = reweight_features(kind, bbox, mask)
    fast = cosformer_attention(phi_q, phi_k, value, weights)
    slow = cosformer_attention_reference(phi_q, phi_k, value, weights)
    torch.testing.assert_close(fast, slow, atol=ATOL, rtol=1e-5)
    # the padded sample's real tokens see only real keys: same as the unpadded sample alone
    alone = cosformer_attention(phi_q[1:, :, :7], phi_k[1:, :, :7], value[1:, :, :7], reweight_features(kind, bbox[1:, :7], mask[1:, :7])[0])
    torch.testing.assert_close(fast[1:, :, :7], alone, atol=ATOL, rtol=1e-5)


def test_cosformer_cross_select_equals_two_quadratic_attentions_selected():
    bbox, mask, phi_q, phi_k, value = cosformer_inputs()
    x_weights, y_weights = reweight_features("cross_select", bbox, mask)
    fast = select_by_magnitude(cosformer_attention(phi_q, phi_k, value, x_weights), cosformer_attention(phi_q, phi_k, value, y_weights))
    slow = select_by_magnitude(
        cosformer_attention_reference(phi_q, phi_k, value, x_weights), cosformer_attention_reference(phi_q, phi_k, value, y_weights)
    )
    torch.testing.assert_close(fast, slow, atol=ATOL, rtol=1e-5)


def test_cos1d_kernel_is_the_cosine_of_scaled_index_differences():
    mask = torch.tensor([[1, 1, 1, 1, 1, 0, 0]])
    weights = cos1d_weights(mask)[0]  # (7, 2)
    kernel = weights @ weights.t()
    i, j = torch.meshgrid(torch.arange(5.0), torch.arange(5.0), indexing="ij")
    torch.testing.assert_close(kernel[:5, :5], torch.cos(math.pi / 2 * (i - j) / 5))
    assert kernel[5:].eq(0).all() and kernel[:, 5:].eq(0).all()


def test_sinusoid_follows_equation_one():
    table = sinusoid(torch.tensor([3]), 8)[0]
    k = torch.arange(4.0)
    expected = torch.stack((torch.sin(3 / 10000 ** (2 * k / 8)), torch.cos(3 / 10000 ** (2 * k / 8))), -1).flatten()
    torch.testing.assert_close(table, expected)


def test_lspe_with_skip_is_sine_plus_the_ffn_and_is_gathered_per_value():
    torch.manual_seed(0)
    plain, skip = LspeEncoding(16, 32, skip=False), LspeEncoding(16, 32, skip=True)
    skip.load_state_dict(plain.state_dict())
    values = torch.tensor([[5, 900, 5, 0]])
    direct = plain.fc2(plain.act(plain.fc1(sinusoid(values, 16))))  # FFN applied to every token
    torch.testing.assert_close(plain(values), direct)
    torch.testing.assert_close(skip(values), direct + sinusoid(values, 16))
