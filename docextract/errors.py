"""Errors a user can cause, their closed set of codes, and the process exit codes.

Every error a user can trigger (a bad file, a missing Tesseract, an unwritable output
folder) is a :class:`DocextractError` subclass. The CLI prints it as one line on stderr,
``docextract: FILE: problem``, and exits with the class's exit code. Anything else is a bug
in docextract (exit 1, traceback with ``--verbose``).

Exit codes (also in ``docextract --help`` and the README):

====  =========================================================================
0     success: every input done
1     internal error in docextract itself (a bug)
2     usage error: bad option or argument
3     missing dependency (Tesseract, language data, model files, a GPU that --device names but torch cannot use)
4     input failed: the file (or, in a batch, at least one file) could not be processed
5     output or file-access error (output folder not writable, disk full, file exists)
6     model refused (not safetensors, remote code, unreadable weights)
130   interrupted (Ctrl-C)
143   terminated (SIGTERM); like 130, finished work is kept
====  =========================================================================
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_MISSING_DEPENDENCY = 3
EXIT_INPUT_FAILED = 4
EXIT_OUTPUT = 5
EXIT_MODEL_REFUSED = 6
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143  # 128 + SIGTERM

EXIT_CODES_HELP = (
    "Exit codes: 0 ok; 1 internal error; 2 usage error; 3 missing dependency (Tesseract, model, GPU); "
    "4 input failed (in a batch: at least one file failed); 5 output not writable; "
    "6 model refused (not safetensors); 130 interrupted (Ctrl-C); 143 terminated (SIGTERM)."
)

# The closed set of per-file error codes (manifest records and --json error output).
ERROR_CODES = (
    "INPUT_NOT_FOUND",
    "INPUT_UNREADABLE",
    "INPUT_EMPTY",
    "UNSUPPORTED_FORMAT",
    "PDF_MALFORMED",
    "PDF_ENCRYPTED",
    "PDF_TOO_LARGE",
    "RESOURCE_LIMIT",
    "IMAGE_TOO_LARGE",
    "IMAGE_TRUNCATED",
    "OCR_FAILED",
    "OCR_TIMEOUT",
    "TIMEOUT",
    "MEMORY_LIMIT",
    "WORKER_CRASH",
    "MODEL_ERROR",
    "OUTPUT_WRITE_FAILED",
    "MISSING_DEPENDENCY",
    "INTERNAL_ERROR",
)


class DocextractError(Exception):
    """An error the user can act on. ``path`` names the file, ``code`` is from :data:`ERROR_CODES`."""

    exit_code = EXIT_INTERNAL
    default_code = "INTERNAL_ERROR"

    def __init__(self, message: str, *, path: str | None = None, code: str | None = None, stage: str | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.code = code or self.default_code
        self.stage = stage
        assert self.code in ERROR_CODES, self.code

    def one_line(self) -> str:
        """The message the CLI prints: ``FILE: problem`` on a single line."""
        text = " ".join(self.message.split())
        return f"{self.path}: {text}" if self.path else text

    def to_dict(self) -> dict[str, str | None]:
        return {"code": self.code, "stage": self.stage, "message": self.one_line()}


class InputError(DocextractError):
    """The input file cannot be processed (missing, empty, corrupt, encrypted, too large, ...)."""

    exit_code = EXIT_INPUT_FAILED
    default_code = "INPUT_UNREADABLE"


class UsageError(DocextractError):
    exit_code = EXIT_USAGE
    default_code = "INTERNAL_ERROR"


class MissingDependencyError(DocextractError):
    exit_code = EXIT_MISSING_DEPENDENCY
    default_code = "MISSING_DEPENDENCY"


class OutputError(DocextractError):
    exit_code = EXIT_OUTPUT
    default_code = "OUTPUT_WRITE_FAILED"


class ModelRefusedError(DocextractError):
    exit_code = EXIT_MODEL_REFUSED
    default_code = "MODEL_ERROR"
