"""JSON lines: what the suite's C programs print, one object per line, among other text."""
import json


def objects(text):
    """Each line of text (str or bytes) that is a JSON object, parsed; other lines skipped."""
    for line in text.splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            yield obj
