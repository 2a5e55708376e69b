"""SSRF rules, retry schedule and signatures of webhook deliveries."""

from datetime import UTC, datetime

import pytest
from standardwebhooks import Webhook

from service.domain import webhook_signing as signing
from service.domain.webhook_retry import DEFAULT_SCHEDULE, next_delay, parse_retry_after
from service.domain.webhook_targets import (
    TargetRefused,
    address_allowed,
    check_url,
    normalise_url,
)

REFUSED_URLS = [
    "http://example.com/hook",  # not https
    "ftp://example.com/hook",
    "https://user:pw@example.com/hook",
    "https:///nohost",
    "https://127.0.0.1/hook",
    "https://127.1/hook",
    "https://2130706433/hook",
    "https://0x7f.1/hook",
    "https://0177.0.0.1/hook",
    "https://0x7f000001/hook",
    "https://10.0.0.5/hook",
    "https://172.16.3.4/hook",
    "https://192.168.1.1/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.0.1/hook",
    "https://0.0.0.0/hook",
    "https://[::1]/hook",
    "https://[fe80::1]/hook",
    "https://[fc00::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[64:ff9b::7f00:1]/hook",
    "https://[2002:7f00:1::]/hook",
    "https://localhost/hook",
    "https://api.localhost/hook",
    "https://" + "a" * 2100 + ".com/",
    "https://[::127.0.0.1]/hook",  # IPv4-compatible IPv6
    "https://[::10.0.0.1]/hook",
    "https://[::7f00:1]/hook",
    "https://①②⑦.0.0.1/hook",  # circled digits: 127.0.0.1 once IDNA-mapped
    "https://127。0。0。1/hook",  # ideographic full stops
    "https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/hook",  # full-width digits
    "https://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/hook",
    "https://exa\u200bmple..com/hook",
]


@pytest.mark.parametrize("url", REFUSED_URLS)
def test_refused_targets(url: str) -> None:
    with pytest.raises(TargetRefused):
        check_url(normalise_url(url), allow_private=False)


def test_a_host_that_is_not_ascii_must_be_normalised_first() -> None:
    with pytest.raises(TargetRefused, match="IDNA"):
        check_url("https://exämple.com/hook", allow_private=False)


def test_international_hosts_are_stored_in_their_idna_form() -> None:
    assert normalise_url("https://Exämple.com:8443/in?x=1") == (
        "https://xn--exmple-cua.com:8443/in?x=1"
    )
    assert normalise_url("https://hooks.example.com/in") == "https://hooks.example.com/in"
    assert check_url(normalise_url("https://bücher.example/in"), allow_private=False) == (
        "xn--bcher-kva.example",
        443,
    )


def test_public_https_targets_are_allowed() -> None:
    assert check_url("https://hooks.example.com/in", allow_private=False) == (
        "hooks.example.com",
        443,
    )
    assert check_url("https://8.8.8.8:8443/x", allow_private=False) == ("8.8.8.8", 8443)
    assert check_url("https://[2606:4700::1111]/x", allow_private=False)[0] == "2606:4700::1111"


def test_private_targets_only_with_configuration() -> None:
    assert check_url("http://127.0.0.1:9000/hook", allow_private=True) == ("127.0.0.1", 9000)
    assert address_allowed("10.1.2.3", allow_private=True)
    assert not address_allowed("10.1.2.3", allow_private=False)
    assert not address_allowed("224.0.0.1", allow_private=True)
    assert address_allowed("1.1.1.1", allow_private=False)
    assert not address_allowed("::ffff:10.0.0.1", allow_private=False)


def test_retry_schedule_backs_off_with_jitter_and_honours_retry_after() -> None:
    delays = [next_delay(n, DEFAULT_SCHEDULE, None) for n in range(1, 8)]
    for delay, base in zip(delays, DEFAULT_SCHEDULE, strict=True):
        assert delay is not None and base * 0.8 <= delay <= base * 1.2
    assert next_delay(8, DEFAULT_SCHEDULE, None) is None
    assert next_delay(1, DEFAULT_SCHEDULE, 120) == 120
    assert next_delay(1, DEFAULT_SCHEDULE, 10**9) == 86400
    assert parse_retry_after("30") == 30 and parse_retry_after("soon") is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0


def test_signatures_verify_with_the_standard_webhooks_library() -> None:
    secret = signing.new_secret()
    assert secret.startswith("whsec_")
    body = b'{"id":"evt_1","seq":1}'
    timestamp = int(datetime.now(UTC).timestamp())
    headers = signing.headers(secret, "evt_1", timestamp, body)
    assert Webhook(secret).verify(body, headers) == {"id": "evt_1", "seq": 1}
    tampered = {**headers, "webhook-id": "evt_2"}
    with pytest.raises(Exception, match="signature"):
        Webhook(secret).verify(body, tampered)
