"""docextract/files.py: the one atomic writer (files and whole folders) and the one file hash."""

import hashlib

import pytest

from docextract.errors import OutputError
from docextract.files import TEMP_PREFIX, atomic_writer, file_sha256, replace_folder_atomic, write_bytes_atomic


def test_streamed_write_replaces_the_file_only_when_complete(tmp_path):
    target = tmp_path / "labels.jsonl"
    write_bytes_atomic(target, b"old\n")
    with pytest.raises(RuntimeError):
        with atomic_writer(target) as handle:
            handle.write(b"new, half")
            raise RuntimeError("killed mid-stream")
    assert target.read_bytes() == b"old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["labels.jsonl"]  # no temporary file left


def test_folder_is_replaced_as_a_whole(tmp_path):
    model = tmp_path / "best"
    replace_folder_atomic(model, lambda staging: (staging / "config.json").write_text("1"))
    with pytest.raises(OSError):
        def half_written(staging):
            (staging / "config.json").write_text("2")
            raise OSError("disk full")
        replace_folder_atomic(model, half_written)
    assert (model / "config.json").read_text() == "1"
    replace_folder_atomic(model, lambda staging: (staging / "weights").write_text("3"))
    assert sorted(p.name for p in model.iterdir()) == ["weights"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(TEMP_PREFIX)]


def test_refuses_to_write_through_a_link(tmp_path):
    (tmp_path / "elsewhere").write_text("keep")
    (tmp_path / "out.json").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(OutputError):
        write_bytes_atomic(tmp_path / "out.json", b"{}")
    assert (tmp_path / "elsewhere").read_text() == "keep"


def test_file_hash_is_read_once_per_version_of_the_file(tmp_path):
    path = tmp_path / "invoice.pdf"
    path.write_bytes(b"%PDF-1.7 first")
    first = file_sha256(path, reuse=True)
    assert first == (hashlib.sha256(b"%PDF-1.7 first").hexdigest(), 14)
    assert file_sha256(path, reuse=True) is first  # the reader after the batch worker: from memory
    path.write_bytes(b"%PDF-1.7 second version")  # another size: another version
    assert file_sha256(path, reuse=True).sha256 == hashlib.sha256(b"%PDF-1.7 second version").hexdigest()
    assert file_sha256(path) is not file_sha256(path)  # integrity checks always read


def test_a_model_folder_is_readable_like_every_other_output(tmp_path):
    """transformers' save_pretrained writes model.safetensors with mode 0600 (config.json 0644): the folder
    docextract writes gives every file 0644 and every folder 0755, as its other outputs."""
    import os
    import stat

    from docextract.modeling import from_preset

    def save(staging):
        from_preset("lspe-layoutlm", num_labels=3, num_hidden_layers=1).save_pretrained(staging, safe_serialization=True)
        (staging / "sub").mkdir(mode=0o700)
        (staging / "sub" / "notes.json").write_text("{}")

    folder = replace_folder_atomic(tmp_path / "model", save)
    modes = {p.relative_to(folder).as_posix(): stat.S_IMODE(os.stat(p).st_mode) for p in folder.rglob("*")}
    assert modes["model.safetensors"] == modes["config.json"] == modes["sub/notes.json"] == 0o644, modes
    assert modes["sub"] == stat.S_IMODE(os.stat(folder).st_mode) == 0o755
