"""A small OpenAPI comparator: what a new document breaks for clients of an older one.

Within a major version the document may only grow: a new route, operation, response, schema, an
optional request field, a new property or enum value in an answer, a new member of a union (a single
type growing into a union that holds it, a `const` into an `enum` that holds it: a game added). Anything
else a client of the old document could trip on is a breaking change: a removed route, operation,
response, media type, schema or property; a property or parameter made required, or a new required
request field or parameter; a type, enum, `const` or reference changed to something narrower; a
union member removed; a request constraint tightened."""

from __future__ import annotations

METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
_TIGHTER_IF_SMALLER = ("maxLength", "maxItems", "maximum", "exclusiveMaximum", "maxProperties")
_TIGHTER_IF_LARGER = ("minLength", "minItems", "minimum", "exclusiveMinimum", "minProperties")


def _types(schema: dict) -> set[str]:
    kind = schema.get("type")
    found = set(kind) if isinstance(kind, list) else {kind} if kind else set()
    for option in schema.get("oneOf", []) + schema.get("anyOf", []):
        if "type" in option and "$ref" not in option and len(option) <= 2:
            found |= _types(option)
    return found


def _refs(schema: dict) -> list[str]:
    """The references a union (oneOf, anyOf) holds."""
    return [o["$ref"] for o in schema.get("oneOf", []) + schema.get("anyOf", []) if "$ref" in o]


class Comparator:
    def __init__(self, old: dict, new: dict) -> None:
        self.old, self.new, self.found = old, new, []
        self.old_schemas = old.get("components", {}).get("schemas", {})
        self.new_schemas = new.get("components", {}).get("schemas", {})
        self.compared: set[tuple[str, bool]] = set()

    def breaking(self) -> list[str]:
        for path, old_item in self.old.get("paths", {}).items():
            new_item = self.new.get("paths", {}).get(path)
            if new_item is None:
                self.found.append(f"route removed: {path}")
                continue
            for method in METHODS:
                if method in old_item:
                    if method not in new_item:
                        self.found.append(f"operation removed: {method.upper()} {path}")
                    else:
                        self._operation(f"{method.upper()} {path}", old_item[method], new_item[method])
        for name in self.old_schemas:
            if name not in self.new_schemas:
                self.found.append(f"schema removed: {name}")
        return self.found

    def _operation(self, where: str, old: dict, new: dict) -> None:
        old_params = {(p["in"], p["name"]): p for p in old.get("parameters", [])}
        new_params = {(p["in"], p["name"]): p for p in new.get("parameters", [])}
        for key, param in new_params.items():
            if param.get("required") and not old_params.get(key, {}).get("required"):
                self.found.append(f"{where}: parameter {key[1]} ({key[0]}) is required now")
        for key, param in old_params.items():
            if key not in new_params:
                self.found.append(f"{where}: parameter {key[1]} ({key[0]}) removed")
            elif "schema" in param:
                self._schema(f"{where} parameter {key[1]}", param["schema"], new_params[key].get("schema", {}), True)
        old_body, new_body = old.get("requestBody"), new.get("requestBody")
        if new_body and new_body.get("required") and not (old_body and old_body.get("required")):
            self.found.append(f"{where}: a request body is required now")
        if old_body and new_body:
            self._content(f"{where} request", old_body.get("content", {}), new_body.get("content", {}), True)
        for status, response in old.get("responses", {}).items():
            if status not in new.get("responses", {}):
                self.found.append(f"{where}: response {status} removed")
            else:
                self._content(
                    f"{where} {status}", response.get("content", {}), new["responses"][status].get("content", {}), False
                )

    def _content(self, where: str, old: dict, new: dict, request: bool) -> None:
        for media, body in old.items():
            if media not in new:
                self.found.append(f"{where}: media type {media} removed")
            else:
                self._schema(where, body.get("schema", {}), new[media].get("schema", {}), request)

    def _schema(self, where: str, old: dict, new: dict, request: bool) -> None:
        if "$ref" in old and "$ref" not in new and old["$ref"] in _refs(new):  # one type grew into a union
            self._component(old["$ref"].rsplit("/", 1)[-1], request)
            return
        if "$ref" in old or "$ref" in new:
            if old.get("$ref") != new.get("$ref"):
                self.found.append(f"{where}: {old.get('$ref') or 'inline schema'} became {new.get('$ref') or 'inline'}")
            else:
                self._component(old["$ref"].rsplit("/", 1)[-1], request)
            return
        lost = _types(old) - _types(new) if _types(new) else set()
        if lost:
            self.found.append(f"{where}: type {sorted(lost)} no longer allowed")
        if "const" in old and old.get("const") != new.get("const") and old["const"] not in new.get("enum", ()):
            self.found.append(f"{where}: const {old['const']!r} changed")
        if "enum" in old and "enum" in new and set(old["enum"]) - set(new["enum"]):
            self.found.append(f"{where}: enum values {sorted(set(old['enum']) - set(new['enum']), key=str)} removed")
        if "enum" in new and "enum" not in old and request:
            self.found.append(f"{where}: values restricted to an enum")
        if request:
            self._constraints(where, old, new)
        self._properties(where, old, new, request)
        old_refs, new_refs = _refs(old), _refs(new)
        for ref in old_refs:
            if ref not in new_refs:
                self.found.append(f"{where}: union member {ref} removed")
            else:
                self._component(ref.rsplit("/", 1)[-1], request)
        for key in ("items", "additionalProperties"):
            if isinstance(old.get(key), dict) and isinstance(new.get(key), dict):
                self._schema(f"{where}[{key}]", old[key], new[key], request)
        for i, (o, n) in enumerate(zip(old.get("prefixItems", []), new.get("prefixItems", []))):
            self._schema(f"{where}[{i}]", o, n, request)

    def _constraints(self, where: str, old: dict, new: dict) -> None:
        for key in _TIGHTER_IF_SMALLER:
            if key in new and (key not in old or new[key] < old[key]):
                self.found.append(f"{where}: {key} tightened to {new[key]}")
        for key in _TIGHTER_IF_LARGER:
            if key in new and (key not in old or new[key] > old[key]):
                self.found.append(f"{where}: {key} tightened to {new[key]}")
        if "pattern" in new and new.get("pattern") != old.get("pattern"):
            self.found.append(f"{where}: pattern changed")

    def _properties(self, where: str, old: dict, new: dict, request: bool) -> None:
        old_props, new_props = old.get("properties", {}), new.get("properties", {})
        old_required, new_required = set(old.get("required", [])), set(new.get("required", []))
        for name, schema in old_props.items():
            if name not in new_props:
                self.found.append(f"{where}: property {name} removed")
            else:
                self._schema(f"{where}.{name}", schema, new_props[name], request)
        for name in new_required - old_required:
            if name in old_props or request:
                self.found.append(f"{where}: property {name} is required now")
        if (
            request
            and old.get("additionalProperties") is not False
            and new.get("additionalProperties") is False
            and old_props
        ):
            self.found.append(f"{where}: no longer takes other properties")

    def _component(self, name: str, request: bool) -> None:
        if (name, request) in self.compared or name not in self.old_schemas or name not in self.new_schemas:
            return
        self.compared.add((name, request))
        self._schema(f"#{name}", self.old_schemas[name], self.new_schemas[name], request)


def breaking_changes(old: dict, new: dict) -> list[str]:
    """Every change from `old` to `new` that could break a client written against `old`."""
    return Comparator(old, new).breaking()
