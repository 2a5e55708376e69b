"""The request head the parser reads has no `Upgrade` header, and nothing else changed."""

from __future__ import annotations

from service.server_protocol import without_upgrade


def test_upgrade_lines_are_taken_out_whatever_their_case() -> None:
    head = (
        b"POST /x HTTP/1.1\r\nConnection: Upgrade, HTTP2-Settings\r\n"
        b"UPGRADE: h2c\r\nupgrade: websocket\r\nContent-Length: 2\r\n"
    )
    assert without_upgrade(head) == (
        b"POST /x HTTP/1.1\r\nConnection: Upgrade, HTTP2-Settings\r\nContent-Length: 2\r\n"
    )


def test_a_header_or_path_that_only_contains_the_word_is_kept() -> None:
    head = b"GET /upgrade:x HTTP/1.1\r\nX-Upgrade: h2c\r\nHost: a\r\n"
    assert without_upgrade(head) == head
