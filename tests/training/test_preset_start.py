"""scripts/preset_start.py writes the untrained start that `finetune --model PRESET --seed S` would build, as a compact
folder that travels without the MiniLM package: finetune then keeps its head, and its weights are the preset's up to
the compact file's rounding."""

import subprocess
import sys
from pathlib import Path

import torch

from docextract.data.labelled import load_documents
from docextract.evaluation.evaluate import prepare_for_model
from docextract.modeling.compact import is_compact
from docextract.training.finetune import build_model, label_set_of, target_config
from docextract.training.heads import head_tags, plan_labels
from tests.conftest import funsd_jsonl

ROOT = Path(__file__).resolve().parents[2]


def test_the_start_folder_is_the_seeded_preset_with_its_head(tmp_path):
    data = funsd_jsonl(tmp_path / "train.jsonl", "train", limit=2)
    start = tmp_path / "start"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "preset_start.py"), "lagabi", str(data), str(start),
                    "--seed", "7"], check=True, cwd=ROOT, capture_output=True)
    assert is_compact(start) and (start / "tokenizer.json").is_file()

    labels = label_set_of([prepare_for_model(d) for d in load_documents([data])])
    tags = head_tags(target_config(str(start), {}), "BIESO")
    plan = plan_labels(tags, labels, "BIO", False, str(start))
    assert plan.kept == len(tags) == 7 and plan.labels == tags  # finetune keeps this head, grows nothing

    torch.manual_seed(7)
    preset = build_model("lagabi", plan.labels, {})
    travelled = build_model(str(start), plan.labels, {})
    ours, theirs = preset.state_dict(), travelled.state_dict()
    assert ours.keys() == theirs.keys()
    for name, weight in ours.items():
        if weight.is_floating_point():  # fp16 everywhere, int8 rows for the word embeddings
            tolerance = 0.02 if "word_embeddings" in name else 2e-3
            assert torch.allclose(weight, theirs[name], atol=tolerance), name
    assert torch.equal(preset.classifier.weight.half(), travelled.classifier.weight.half())
