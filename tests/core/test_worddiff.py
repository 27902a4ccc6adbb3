"""Word diffs: exact sides, readable pieces, bounded cost."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from build_tools.history import worddiff
from build_tools.history.worddiff import Piece, side, word_diff


@pytest.mark.parametrize(
    ("old", "new", "pieces"),
    [
        (
            "The quick brown fox.\nSame line.\n",
            "The slow brown cat!\nSame line.\n",
            [
                Piece("equal", "The "),
                Piece("delete", "quick"),
                Piece("insert", "slow"),
                Piece("equal", " brown "),
                Piece("delete", "fox."),
                Piece("insert", "cat!"),
                Piece("equal", "\nSame line.\n"),
            ],
        ),
        (
            "a b c",
            "x y c",
            [Piece("delete", "a b"), Piece("insert", "x y"), Piece("equal", " c")],
        ),
        (
            "Отвечайте простыми словами.",
            "Отвечайте короткими словами.",
            [
                Piece("equal", "Отвечайте "),
                Piece("delete", "простыми"),
                Piece("insert", "короткими"),
                Piece("equal", " словами."),
            ],
        ),
    ],
    ids=["words change and spaces stay", "neighbouring changes read as one", "cyrillic words"],
)
def test_a_word_diff_reads_as_people_read(old: str, new: str, pieces: list[Piece]) -> None:
    assert word_diff(old, new) == pieces


def test_a_whole_rewrite_costs_little() -> None:
    old = " ".join(f"word{i}" for i in range(3000))
    new = " ".join(f"other{i}" for i in range(3000))
    assert word_diff(old, new) == [Piece("delete", old), Piece("insert", new)]
    assert len(old.split()) ** 2 > worddiff.MAX_WORD_PAIRS


texts = st.text(alphabet=st.sampled_from(list("ab ,.\n\tжж-\r")), max_size=60)


@given(texts, texts)
def test_the_pieces_give_back_both_texts(old: str, new: str) -> None:
    pieces = word_diff(old, new)
    assert side(pieces, "old") == old
    assert side(pieces, "new") == new
    assert all(piece.text for piece in pieces)
    assert all(a.op != b.op for a, b in itertools.pairwise(pieces))
