"""LayoutConfig: one BERT-compatible configuration whose switches select each paper's layout parts.

Defaults are MiniLM-L6's dimensions (384 hidden, 12 heads of 32, 6 layers, 512 positions, vocab
30522) with every layout part switched off, so that ``LayoutConfig()`` is plain MiniLM. The
presets in :mod:`docextract.modeling.presets` turn the parts on (see docs/models.md §5).
"""

from __future__ import annotations

from transformers import AutoConfig, PretrainedConfig

from docextract.modeling.loading import MODEL_TYPE
from docextract.modeling.saved_config import (  # noqa: F401  (re-exported: where these names have always been)
    ATTENTION_KINDS,
    COSFORMER_REWEIGHTS,
    LAGABI_CORNERS,
    LAGABI_THETAS,
    LAYOUT_BIASES,
    POLAR_DISTANCE_SCHEMES,
    POLAR_REL1D,
    POSITION_KINDS,
    SPECIAL_TOKENS,
    check_layout_values,
    max_window_tokens,
    position_table_size,
    uses_layout,
)


class LayoutConfig(PretrainedConfig):
    """Every knob of the layout encoder family. Dimensions follow HF ``BertConfig`` names."""

    model_type = MODEL_TYPE

    def __init__(
        self,
        vocab_size: int = 30522,
        hidden_size: int = 384,
        num_hidden_layers: int = 6,
        num_attention_heads: int = 12,
        intermediate_size: int = 1536,
        hidden_act: str = "gelu",
        hidden_dropout_prob: float = 0.1,
        # 0 on CPU: dropout on attention weights forces a slow attention path (2.5x slower steps).
        attention_probs_dropout_prob: float = 0.0,
        max_position_embeddings: int = 512,
        type_vocab_size: int = 2,
        initializer_range: float = 0.02,
        layer_norm_eps: float = 1e-12,
        pad_token_id: int = 0,
        # 1D and 2D absolute positions (LSPE paper eqs. 1-4, LayoutLM)
        position_1d: str = "learned",
        position_2d: str = "none",
        position_2d_size: bool = True,  # also embed box width and height (HF LayoutLM), not only corners
        max_2d_position_embeddings: int = 1024,
        lspe_ffn_dim: int = 1536,  # docs/models.md §1b (our choice): d_ff = 4 * hidden
        # how a learned 1D table longer than the pretrained one is initialised (Longformer copy-init)
        position_extension: str = "tile",
        # relative layout bias (DocPolarBERT, LAGaBi, long-range paper)
        layout_bias: str = "none",
        polar_distance: str = "quantile",
        polar_distance_bins: int = 4,
        polar_t5_max_distance: int = 256,
        polar_rel1d: str = "off",
        polar_rel1d_buckets: int = 32,
        polar_rel1d_max_distance: int = 128,
        lagabi_alpha: float = 4.0,
        lagabi_corner: str = "bottom_left",
        lagabi_theta: str = "atan2_dx_dy",
        # attention kernel
        attention: str = "softmax",
        cosformer_reweight: str = "cos1d",
        linformer_k: int = 256,
        local_window: int = 512,  # local_cosformer: tokens per softmax block
        position_1d_period: int = 0,  # 0: 1D positions count on; N: position p reads as p mod N (see layers.py)
        # extras
        page_embeddings: bool = False,
        max_pages: int = 1024,
        lop_classes: int = 11,  # 1-LOP: local order 0..10 (DocPolarBERT code)
        lop_loss_weight: float = 0.5,
        classifier_dropout: float | None = None,
        **kwargs,
    ):
        super().__init__(pad_token_id=pad_token_id, **kwargs)
        check_layout_values(dict(
            position_1d=position_1d, position_2d=position_2d, layout_bias=layout_bias, attention=attention,
            cosformer_reweight=cosformer_reweight, polar_distance=polar_distance, polar_rel1d=polar_rel1d,
            lagabi_corner=lagabi_corner, lagabi_theta=lagabi_theta, position_extension=position_extension,
            hidden_size=hidden_size, num_attention_heads=num_attention_heads,
        ))
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.intermediate_size = intermediate_size
        self.hidden_act = hidden_act
        self.hidden_dropout_prob = hidden_dropout_prob
        self.attention_probs_dropout_prob = attention_probs_dropout_prob
        self.max_position_embeddings = max_position_embeddings
        self.type_vocab_size = type_vocab_size
        self.initializer_range = initializer_range
        self.layer_norm_eps = layer_norm_eps
        self.position_1d = position_1d
        self.position_2d = position_2d
        self.position_2d_size = position_2d_size
        self.max_2d_position_embeddings = max_2d_position_embeddings
        self.lspe_ffn_dim = lspe_ffn_dim
        self.position_extension = position_extension
        self.layout_bias = layout_bias
        self.polar_distance = polar_distance
        self.polar_distance_bins = polar_distance_bins
        self.polar_t5_max_distance = polar_t5_max_distance
        self.polar_rel1d = polar_rel1d
        self.polar_rel1d_buckets = polar_rel1d_buckets
        self.polar_rel1d_max_distance = polar_rel1d_max_distance
        self.lagabi_alpha = lagabi_alpha
        self.lagabi_corner = lagabi_corner
        self.lagabi_theta = lagabi_theta
        self.attention = attention
        self.cosformer_reweight = cosformer_reweight
        self.linformer_k = linformer_k
        self.local_window = local_window
        self.position_1d_period = position_1d_period
        self.page_embeddings = page_embeddings
        self.max_pages = max_pages
        self.lop_classes = lop_classes
        self.lop_loss_weight = lop_loss_weight
        self.classifier_dropout = classifier_dropout

    @property
    def head_dim(self) -> int:
        return self.hidden_size // self.num_attention_heads

    @property
    def uses_layout(self) -> bool:
        """Whether boxes are read at all (absolute 2D, relative bias, or a 2D cosFormer re-weighting)."""
        return uses_layout(self)


AutoConfig.register(MODEL_TYPE, LayoutConfig, exist_ok=True)  # AutoConfig reads docextract config.json files
