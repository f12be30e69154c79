"""The break after a lead-in (a line ending in a colon, or a title shorter than the line
after it), which smart's Balance(lead_ins=True) skips; measured in bench/retrieval.py
--leave-one-out (issue 31), not smart's default."""
from __future__ import annotations

import dataclasses

import chunkwise
from chunkwise.packing import strategies
from chunkwise.packing.policies import follows_lead_in


def _break_after(text: str, line: str) -> int:
    return text.index(line) + len(line)


def test_a_colon_or_a_title_leads_in_a_table_row_or_a_sentence_does_not():
    text = ("Revenue grew.\n\nThe table sets forth revenue by segment (in millions):\n\nCloud   $ 1,200\n"
            "Devices $   900\n\nNote 4. Income taxes\n\nThe effective tax rate was 21% in 2023, and 19% in 2022.\n")
    assert follows_lead_in(text, _break_after(text, "(in millions):"))
    assert follows_lead_in(text, _break_after(text, "Note 4. Income taxes"))  # shorter than its paragraph
    assert not follows_lead_in(text, _break_after(text, "Cloud   $ 1,200"))  # a row as long as the next
    assert not follows_lead_in(text, _break_after(text, "Revenue grew."))  # a sentence ends there
    assert not follows_lead_in(text, _break_after(text, "in 2022."))
    wiki = " = = Gameplay = = \n As with previous games , the game is a tactical role @-@ playing game . \n"
    assert follows_lead_in(wiki, _break_after(wiki, "= = Gameplay = ="))


def test_with_lead_ins_a_table_keeps_its_caption(monkeypatch):
    intro = "Revenue increased by 12% compared with the prior year, driven by growth in cloud services. " * 4
    caption = "The following table sets forth revenue by segment (in millions):"
    table = "\n".join(f"Segment {i:<10} $ {1000 + 37 * i:>6,}   $ {900 + 41 * i:>6,}" for i in range(6))
    text = f"{intro}\n\n{caption}\n\n{table}\n\nThe rest of the discussion follows here. " + "More prose. " * 40
    def ends(chunks):
        return [c.text.rstrip().endswith(caption) for c in chunks]
    assert any(ends(chunkwise.chunk(text, max_tokens=200, overlap=0)))  # the round-2 rule orphans the caption
    smart = dataclasses.replace(strategies.SPECS["smart"], balance=strategies.Balance(lead_ins=True))
    monkeypatch.setitem(strategies.SPECS, "smart", smart)
    chunks = chunkwise.chunk(text, max_tokens=200, overlap=0)
    assert not any(ends(chunks))
    assert any(caption in c.text and "Segment 5" in c.text for c in chunks)


def test_the_last_row_of_a_table_before_prose_is_no_title():
    text = "Segment 4   $ 1,148\nSegment 5   $ 1,185\n\nThe rest of the discussion follows here, at some length.\n"
    assert not follows_lead_in(text, _break_after(text, "Segment 5   $ 1,185"))
