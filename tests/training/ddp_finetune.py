"""Started by torchrun from test_distributed.py: `finetune()` in one of several processes, optionally
"killed" after some optimizer steps (``stop_after_steps``, which the CLI does not offer).

    torchrun --standalone --nproc-per-node 2 tests/training/ddp_finetune.py '{"train_files": [...], ...}'
"""

import json
import sys
from pathlib import Path

import torch

from docextract.training.distributed import stop
from docextract.training.finetune import FinetuneOptions, finetune


def main() -> None:
    args = json.loads(sys.argv[1])
    stop_after_steps = args.pop("stop_after_steps", None)
    for key in ("train_files", "eval_files", "replay_files"):
        args[key] = tuple(Path(p) for p in args[key])
    args["output_dir"] = Path(args["output_dir"])
    torch.set_num_threads(1)
    try:
        finetune(FinetuneOptions(**args), stop_after_steps=stop_after_steps)
    finally:
        stop()


if __name__ == "__main__":
    main()
