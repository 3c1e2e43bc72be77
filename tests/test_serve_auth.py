"""Where `docextract serve`'s token comes from and when the server refuses to start without one (no server here:
tests/test_serve.py sends real requests to a real one)."""

from __future__ import annotations

import pytest

from docextract.errors import EXIT_USAGE, UsageError
from docextract.serve.auth import MIN_TOKEN_CHARS, TOKEN_ENV, check_listen, is_loopback, read_token, readable_by_others

GOOD = "q3Vx-8mZ_r2Lw9Tn0bYk4Jc"


def test_the_token_comes_from_the_file_or_the_environment_with_its_line_break_stripped(tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text(GOOD + "\n")
    assert read_token(token_file, {}) == GOOD
    assert read_token(None, {TOKEN_ENV: f"  {GOOD}\n"}) == GOOD
    assert read_token(None, {}) is None


@pytest.mark.parametrize("content, problem", [
    ("", "is empty"), ("\n  \n", "is empty"), ("short-token", f"fewer than {MIN_TOKEN_CHARS}"),
    ("two words in one token here", "printable ASCII without spaces"), ("jeton-trés-secret-1234", "printable ASCII"),
])
def test_a_token_that_is_empty_short_or_not_header_safe_is_a_usage_error(tmp_path, content, problem):
    token_file = tmp_path / "token"
    token_file.write_text(content)
    for source in ({"token_file": token_file, "environ": {}}, {"token_file": None, "environ": {TOKEN_ENV: content}}):
        with pytest.raises(UsageError, match=problem) as raised:
            read_token(**source)
        assert raised.value.exit_code == EXIT_USAGE
        assert content.strip() == "" or content not in raised.value.one_line()  # the message never repeats the token


def test_a_missing_token_file_or_two_tokens_are_usage_errors(tmp_path):
    with pytest.raises(UsageError, match="cannot read the token file") as raised:
        read_token(tmp_path / "absent", {})
    assert str(tmp_path / "absent") in raised.value.one_line()
    token_file = tmp_path / "token"
    token_file.write_text(GOOD)
    with pytest.raises(UsageError, match="give one"):
        read_token(token_file, {TOKEN_ENV: GOOD})


def test_a_token_file_others_can_read_is_noticed(tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text(GOOD)
    token_file.chmod(0o600)
    assert not readable_by_others(token_file)
    token_file.chmod(0o644)
    assert readable_by_others(token_file)


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.1.1", "::1", "[::1]", "localhost", "LOCALHOST"])
def test_loopback_hosts_need_no_token(host):
    assert is_loopback(host)
    check_listen(host, has_token=False, insecure_no_token=False)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "10.0.0.7", "fe80::1", "invoices.internal", "my-host"])
def test_any_other_host_needs_a_token_or_the_insecure_flag(host):
    assert not is_loopback(host)
    with pytest.raises(UsageError, match="--token-file FILE or DOCEXTRACT_TOKEN") as raised:
        check_listen(host, has_token=False, insecure_no_token=False)
    assert raised.value.exit_code == EXIT_USAGE and "--insecure-no-token" in raised.value.one_line()
    check_listen(host, has_token=True, insecure_no_token=False)
    check_listen(host, has_token=False, insecure_no_token=True)


def test_a_token_and_the_insecure_flag_together_are_a_usage_error():
    with pytest.raises(UsageError, match="--insecure-no-token"):
        check_listen("0.0.0.0", has_token=True, insecure_no_token=True)
