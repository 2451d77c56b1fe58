"""Errors that end the command with one line on stderr: exit 2 for usage or
set-up errors (what the user can fix), 3 for an internal error (a bug in
scnfuzz). Exit 1 is kept for findings."""


class ScnError(Exception):
    """Usage or set-up error: one line, exit 2."""


class UsageError(ScnError):
    pass


class SetupError(ScnError):
    pass


class InternalError(Exception):
    """A bug of scnfuzz itself (not of the printf under test): one line, exit 3."""


def write_error(path, err, kept=""):
    """The set-up error for a failed write (disk full, read-only, quota): what
    failed, and that what was written before is intact."""
    why = getattr(err, "strerror", None) or str(err)
    return SetupError(f"cannot write {path}: {why}; what was written before is intact{kept}"
                      f" (free some space, then `./scnfuzz report DIR` rebuilds the report)")


def read_json(path, what):
    """The JSON value in the file path, or a UsageError naming what the user
    gave (e.g. "--profile FILE"): the file unreadable, or not JSON."""
    import json
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise UsageError(f"{what}: {e.strerror}") from None
    except ValueError as e:
        raise UsageError(f"{what}: not JSON ({e})") from None
