"""The layout encoder as a transformers ``PreTrainedModel``: what `finetune` and `pretrain` train and save.

The layers themselves are plain torch modules in :mod:`docextract.modeling.layers` (shared with the inference
runtime, which loads the same weights without transformers). Module and parameter names follow HF
``BertModel``, so MiniLM's checkpoint loads by name.
"""

from __future__ import annotations

import torch
from transformers import PreTrainedModel
from transformers import initialization as init
from transformers.modeling_outputs import BaseModelOutput

from docextract.modeling.attention import IdentityInitLinear, LinformerSelfAttention
from docextract.modeling.config import LayoutConfig
from docextract.modeling.gaussian import MU_INIT_MAX, SIGMA_INIT_MIN, GaussianPolarBias
from docextract.modeling.layers import (  # noqa: F401  (re-exported: the names the package has always had)
    Attention,
    Intermediate,
    Layer,
    LayerStack,
    LayoutEmbeddings,
    LayoutEncoderParts,
    SelfOutput,
    SequenceTooLongError,
)
from docextract.modeling.loading import check_loadable_folder
from docextract.modeling.polar import PolarShawTables


class LayoutPreTrainedModel(PreTrainedModel):
    """Shared init and loading rules: safetensors only, never remote code."""

    config_class = LayoutConfig
    base_model_prefix = "layout"
    _supports_sdpa = True

    @classmethod
    def from_pretrained(cls, pretrained_model_name_or_path, *args, **kwargs):
        """Load a saved docextract model folder; refuses pickle weights and remote code (ModelRefusedError)."""
        folder = check_loadable_folder(pretrained_model_name_or_path, kwargs.pop("trust_remote_code", False))
        kwargs.update(use_safetensors=True, local_files_only=True)
        return super().from_pretrained(str(folder), *args, **kwargs)

    @torch.no_grad()
    def _init_weights(self, module):
        std = self.config.initializer_range
        if isinstance(module, IdentityInitLinear):
            init.eye_(module.weight)
            init.zeros_(module.bias)
            return
        super()._init_weights(module)
        if isinstance(module, PolarShawTables):
            for table in (module.distance_table, module.angle_table, getattr(module, "rel1d_table", None)):
                if table is not None:
                    init.normal_(table, mean=0.0, std=std)
        elif isinstance(module, GaussianPolarBias):
            init.uniform_(module.mu_rho, 0.0, MU_INIT_MAX)
            init.uniform_(module.mu_theta, 0.0, MU_INIT_MAX)
            init.uniform_(module.sigma_rho, SIGMA_INIT_MIN, 1.0)
            init.uniform_(module.sigma_theta, SIGMA_INIT_MIN, 1.0)
        elif isinstance(module, LinformerSelfAttention):
            init.xavier_uniform_(module.proj_k)  # gain 1, as the long-range code
            init.xavier_uniform_(module.proj_v)


class LayoutEncoder(LayoutPreTrainedModel, LayoutEncoderParts):
    """The encoder: ``forward(input_ids, attention_mask, bbox, page_ids, position_ids) -> last_hidden_state``."""

    def __init__(self, config: LayoutConfig):
        super().__init__(config)
        self.build_parts(config)
        self.post_init()

    def get_input_embeddings(self):
        return self.embeddings.word_embeddings

    def set_input_embeddings(self, value):
        self.embeddings.word_embeddings = value

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor | None = None,
        bbox: torch.Tensor | None = None,
        page_ids: torch.Tensor | None = None,
        position_ids: torch.Tensor | None = None,
        token_type_ids: torch.Tensor | None = None,
        position_mask: torch.Tensor | None = None,
        **unused,
    ) -> BaseModelOutput:
        """See :meth:`LayoutEncoderParts.encode`."""
        return BaseModelOutput(last_hidden_state=self.encode(
            input_ids, attention_mask, bbox, page_ids, position_ids, token_type_ids, position_mask))
