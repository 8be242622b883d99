"""The server's one place for counted nouns in messages people read (job messages,
refusals), so that they say "1 document" and "2 documents" as the app's pages do
(`frontend/src/text/plural.ts`); lists of names go through the engine's `in_words`."""


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """'1 document', '0 documents', '3 analyses' (with `plural` when not singular + 's')."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"
