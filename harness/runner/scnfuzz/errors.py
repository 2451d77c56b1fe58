"""Errors that end the command with exit status 2 and one line on stderr."""


class ScnError(Exception):
    """Usage or set-up error: one line, exit 2."""


class UsageError(ScnError):
    pass


class SetupError(ScnError):
    pass
