"""A small JSON-Schema (draft-07 subset) validator, enough for report_schema.json:
type, enum, required, properties, additionalProperties, items, minimum, $ref
(local "#/definitions/..."). Standard library only."""
import json
import os

SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "report_schema.json")
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(v, t):
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return isinstance(v, _TYPES[t])


def validate(doc, schema=None, root=None, path="$"):
    """Returns a list of error strings (empty: valid)."""
    if schema is None:
        with open(SCHEMA_PATH) as f:
            schema = json.load(f)
    root = root or schema
    if "$ref" in schema:
        node = root
        for k in schema["$ref"].lstrip("#/").split("/"):
            node = node[k]
        return validate(doc, node, root, path)
    errs = []
    t = schema.get("type")
    if t is not None:
        ts = t if isinstance(t, list) else [t]
        if not any(_is(doc, x) for x in ts):
            return [f"{path}: expected {'/'.join(ts)}, got {type(doc).__name__}"]
    if "enum" in schema and doc not in schema["enum"]:
        errs.append(f"{path}: {doc!r} not one of {schema['enum']}")
    if "minimum" in schema and _is(doc, "number") and doc < schema["minimum"]:
        errs.append(f"{path}: {doc} < {schema['minimum']}")
    if isinstance(doc, dict):
        for k in schema.get("required", []):
            if k not in doc:
                errs.append(f"{path}: missing {k!r}")
        props = schema.get("properties", {})
        for k, v in doc.items():
            if k in props:
                errs += validate(v, props[k], root, f"{path}.{k}")
            elif isinstance(schema.get("additionalProperties"), dict):
                errs += validate(v, schema["additionalProperties"], root, f"{path}.{k}")
            elif schema.get("additionalProperties") is False:
                errs.append(f"{path}: unexpected {k!r}")
    if isinstance(doc, list) and "items" in schema:
        for i, v in enumerate(doc):
            errs += validate(v, schema["items"], root, f"{path}[{i}]")
    return errs
