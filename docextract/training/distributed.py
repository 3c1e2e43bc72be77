"""Data-parallel training over several processes and machines with ``torch.distributed``, launched by torchrun.

    torchrun --standalone --nproc-per-node 2 -m docextract finetune ...     # 2 processes on this machine
    torchrun --nnodes 2 --node-rank 0|1 --nproc-per-node 8 --rdzv-backend c10d \
        --rdzv-endpoint HOST:29500 -m docextract finetune ...               # 2 machines x 8 GPUs

torchrun sets ``RANK``, ``WORLD_SIZE`` and ``LOCAL_RANK``; without them a run is one process and nothing here
does anything. Why torchrun and plain DDP rather than HF accelerate: the loop already owns everything accelerate
would wrap (its own checkpoint format with atomic folders and verified hashes, resume, the seeded batch order),
and DDP needs only a few lines beside it; accelerate would add a dependency, a config file and its own
checkpoint layout, and change none of the maths.

The recipe does not change with the number of processes: ``--batch-size`` is the **global** batch. Every
process draws the same seeded order of global batches and takes its share of each (:meth:`Processes.shard`).
Each process's loss is weighted by its share of the batch's labelled tokens, so the gradient DDP averages is
the gradient of the mean over the whole batch, as one process computes it (exact for plain cross-entropy; a
weighted or partial-label loss differs by how its terms are normalised). So a checkpoint written by 2
processes resumes in 1, or in 8, and continues the same run.

Process 0 evaluates, keeps the best epoch and writes every checkpoint and output file; the others wait for
it. ``--output`` must therefore be a folder every process can read (on several machines: a shared filesystem).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Sequence

import torch
import torch.distributed as dist

from docextract.errors import UsageError

# How long a process waits for the others (process 0 evaluating a large --eval set, writing a checkpoint).
WAIT = timedelta(hours=2)


@dataclass(frozen=True)
class Processes:
    """This process's place among the training processes (rank 0 of 1 without torchrun)."""

    rank: int = 0
    world_size: int = 1
    local_rank: int = 0

    @property
    def main(self) -> bool:
        return self.rank == 0

    @property
    def distributed(self) -> bool:
        return self.world_size > 1

    def shard(self, indices: Sequence[int]) -> list[int]:
        """This process's contiguous share of one global batch (process 0 takes the first windows)."""
        size = -(-len(indices) // self.world_size)
        return list(indices[self.rank * size:(self.rank + 1) * size])

    def sum(self, values: Sequence[float], device: torch.device) -> list[float]:
        """Each value summed over all processes (the values themselves with one process)."""
        if not self.distributed:
            return [float(v) for v in values]
        tensor = torch.tensor([float(v) for v in values], dtype=torch.float64, device=device)
        dist.all_reduce(tensor)
        return tensor.tolist()

    def from_main(self, value: Any) -> Any:
        """Process 0's ``value``, on every process."""
        if not self.distributed:
            return value
        box = [value]
        dist.broadcast_object_list(box, src=0)
        return box[0]

    def wait(self) -> None:
        """Every process reaches this point before any goes on."""
        if self.distributed:
            dist.barrier()


def from_environment() -> Processes:
    """The processes torchrun started (``RANK``/``WORLD_SIZE``/``LOCAL_RANK``), or one process."""
    try:
        world_size = int(os.environ.get("WORLD_SIZE", "1"))
        rank = int(os.environ.get("RANK", "0"))
        local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    except ValueError:
        raise UsageError("RANK, WORLD_SIZE and LOCAL_RANK must be integers (torchrun sets them)") from None
    if world_size < 1 or not 0 <= rank < world_size:
        raise UsageError(f"RANK {rank} is outside WORLD_SIZE {world_size}")
    return Processes(rank, world_size, local_rank)


def start(processes: Processes, device: torch.device) -> None:
    """Join the process group (NCCL between GPUs, gloo on CPUs) if there is more than one process."""
    if not processes.distributed or dist.is_initialized():
        return
    if "MASTER_ADDR" not in os.environ:
        raise UsageError("WORLD_SIZE > 1 without MASTER_ADDR: start several processes with torchrun "
                         "(torchrun --standalone --nproc-per-node N -m docextract finetune ...)")
    if device.type == "cuda":
        torch.cuda.set_device(device)
    dist.init_process_group("nccl" if device.type == "cuda" else "gloo", timeout=WAIT,
                            rank=processes.rank, world_size=processes.world_size)


def stop() -> None:
    if dist.is_initialized():
        dist.destroy_process_group()
