from service.domain.access import tokens


def test_a_generated_token_has_the_documented_shape() -> None:
    token = tokens.generate()
    assert token.startswith("dgs_")
    assert len(token) == 4 + 36 + 6
    assert token[4:].isalnum() and token.isascii()
    assert tokens.is_well_formed(token)


def test_tokens_are_unique() -> None:
    assert len({tokens.generate() for _ in range(200)}) == 200


def test_a_changed_character_breaks_the_checksum() -> None:
    token = tokens.generate()
    flipped = token[:10] + ("A" if token[10] != "A" else "B") + token[11:]
    assert not tokens.is_well_formed(flipped)


def test_malformed_tokens_are_refused_without_a_lookup() -> None:
    good = tokens.generate()
    for bad in (
        "",
        "dgs_",
        good[:-1],
        good + "x",
        "xyz_" + good[4:],
        good[:20] + "-" + good[21:],
        good.replace("dgs_", "DGS_"),
    ):
        assert not tokens.is_well_formed(bad), bad


def test_checksum_is_crc32_of_the_random_part_in_base62() -> None:
    import zlib

    random_part = "a" * 36
    value = zlib.crc32(random_part.encode())
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    digits = ""
    for _ in range(6):
        value, rem = divmod(value, 62)
        digits = alphabet[rem] + digits
    assert tokens.checksum(random_part) == digits


def test_only_a_sha256_digest_and_an_8_character_prefix_are_derived() -> None:
    token = tokens.generate()
    assert len(tokens.digest(token)) == 64
    assert tokens.digest(token) != token
    assert tokens.display_prefix(token) == token[:8]
