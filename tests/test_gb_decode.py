"""GB18030 decoding by table (``_blockscan.gb_decode``, `decode.gb_pairs`) against Python's
codec: it must give exactly what ``bytes.decode("gb18030")`` gives, or None, and None only
where the bytes hold something other than ASCII and two-byte characters, which the codec
then reads (`decode._strict`). Under CI (CI=true) a missing extension fails the tests."""

from __future__ import annotations

import pytest
from conftest import NATIVE_SETTINGS, skip_or_fail
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.extract import native
from newscrawl.extract.decode import GB_LEADS, GB_TRAILS, _strict, gb_pairs


@pytest.fixture(scope="module")
def pairs() -> bytes:
    if native.blockscan is None:
        skip_or_fail("the _blockscan C extension is not built")
    return gb_pairs()


def is_character(pair: bytes) -> bool:
    try:
        return len(pair.decode("gb18030")) == 1
    except UnicodeDecodeError:
        return False


def test_every_two_byte_character_decodes_as_the_codec_decodes_it(pairs: bytes) -> None:
    for lead in GB_LEADS:
        for trail in GB_TRAILS:
            data = b"a" + bytes((lead, trail)) + b"z"
            decoded = native.blockscan.gb_decode(data, pairs)
            if is_character(data[1:3]):
                assert decoded == data.decode("gb18030"), data
            else:
                assert decoded is None, data


ODD_BYTES = [b"\x81\x30\x81\x30", b"\x95\x32\x82\x36", b"\x80", b"\xff", b"\x81", b"\xa2\xa0"]
ODD_BYTES += ["中文€\U0001f600".encode("gb18030")]
PIECES = st.one_of(
    st.binary(max_size=4).filter(bytes.isascii),
    st.tuples(st.sampled_from(GB_LEADS), st.sampled_from(GB_TRAILS)).map(bytes),
    st.sampled_from(ODD_BYTES),
)
"""ASCII, any lead and trail byte pair (a character or not), four-byte characters, lone
and invalid bytes."""


def ascii_and_pairs_only(data: bytes) -> bool:
    """Whether `data` reads as ASCII bytes and two-byte characters, left to right."""
    at = 0
    while at < len(data):
        if data[at] < 0x80:
            at += 1
        elif is_character(data[at : at + 2]):
            at += 2
        else:
            return False
    return True


@NATIVE_SETTINGS
@given(st.lists(PIECES, max_size=12).map(b"".join))
def test_a_page_decodes_as_the_codec_decodes_it_or_goes_to_the_codec(data: bytes) -> None:
    if native.blockscan is None:
        skip_or_fail("the _blockscan C extension is not built")
    decoded = native.blockscan.gb_decode(data, gb_pairs())
    assert (decoded is not None) is ascii_and_pairs_only(data)
    try:
        expected = data.decode("gb18030")
    except UnicodeDecodeError:
        with pytest.raises(UnicodeDecodeError):
            _strict(data, "gb18030")
        return
    assert decoded in (None, expected)
    assert _strict(data, "gb18030") == expected


def test_gb_decode_refuses_a_table_of_the_wrong_size(pairs: bytes) -> None:
    with pytest.raises(ValueError):
        native.blockscan.gb_decode(b"abc", pairs[:-2])
    with pytest.raises(TypeError):
        native.blockscan.gb_decode("text", pairs)
