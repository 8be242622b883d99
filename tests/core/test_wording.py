"""The server's counted nouns: one thing in the singular, any other count in the plural."""

from backend.core.wording import counted


def test_one_is_singular_and_every_other_count_plural():
    assert counted(1, "document") == "1 document"
    assert counted(0, "document") == "0 documents"
    assert counted(2, "gold document") == "2 gold documents"
    assert counted(3, "analysis", "analyses") == "3 analyses"
