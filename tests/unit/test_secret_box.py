from pathlib import Path

import pytest
from cryptography.fernet import Fernet

from service.domain import webhook_signing as signing
from service.domain.secret_box import SecretBox, SecretKeyMissing, SecretUnreadable
from service.localdb.secret_key import load_or_create_key
from service.settings import Settings

OLD, NEW = Fernet.generate_key().decode(), Fernet.generate_key().decode()


def test_a_sealed_secret_opens_and_never_shows_the_plain_text() -> None:
    secret = signing.new_secret()
    sealed = SecretBox([NEW]).seal(secret)
    assert sealed.startswith("fernet:") and secret.removeprefix("whsec_") not in sealed
    opened = SecretBox([NEW]).open(sealed)
    assert (opened.secret, opened.stale) == (secret, False)


def test_an_old_key_still_opens_and_asks_for_sealing_again() -> None:
    secret = signing.new_secret()
    sealed = SecretBox([OLD]).seal(secret)
    rotated = SecretBox([NEW, OLD])
    assert rotated.open(sealed).stale
    refreshed = rotated.refreshed(sealed)
    assert SecretBox([NEW]).open(refreshed).secret == secret


def test_a_plain_text_secret_from_before_opens_as_it_is() -> None:
    legacy = signing.new_secret()
    opened = SecretBox([NEW]).open(legacy)
    assert (opened.secret, opened.stale) == (legacy, True)
    assert SecretBox([NEW]).refreshed(legacy).startswith("fernet:")
    assert SecretBox([]).refreshed(legacy) == legacy


def test_a_wrong_or_missing_key_is_its_own_error() -> None:
    sealed = SecretBox([OLD]).seal(signing.new_secret())
    with pytest.raises(SecretUnreadable, match="GOVERNANCE_SECRET_KEY"):
        SecretBox([NEW]).open(sealed)
    assert SecretBox([NEW]).refreshed(sealed) == sealed
    with pytest.raises(SecretKeyMissing):
        SecretBox([]).seal(signing.new_secret())


def test_keys_are_read_in_order_and_checked_without_echoing_them() -> None:
    settings = Settings.from_env({"GOVERNANCE_SECRET_KEY": f"{NEW}, {OLD}"})
    assert [k.get_secret_value() for k in settings.webhooks.secret_keys] == [NEW, OLD]
    assert NEW not in repr(settings)
    with pytest.raises(ValueError, match="key 2 is not 32 bytes") as caught:
        Settings.from_env({"GOVERNANCE_SECRET_KEY": f"{NEW},short"})
    assert "short" not in str(caught.value)


def test_the_local_instance_keeps_one_private_key(tmp_path: Path) -> None:
    path = tmp_path / "secret-key"
    key = load_or_create_key(path)
    assert SecretBox([key]).open(SecretBox([key]).seal("whsec_x")).secret == "whsec_x"
    assert load_or_create_key(path) == key and path.stat().st_mode & 0o777 == 0o600
