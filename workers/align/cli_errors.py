"""The command line's two kinds of failure, told apart by their exit status (see `cli`)."""

from __future__ import annotations


class UsageError(Exception):
    """The command line asks for something that cannot be done as written: exit status 2.
    The message names the option and says what to give instead."""


class DataError(Exception):
    """A file's content cannot be used: exit status 1. The message names the file, the place
    in it and what to do."""
