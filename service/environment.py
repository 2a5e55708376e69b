"""Reading a settings model from environment variables, so each setting is declared once.

A field names its variable in `json_schema_extra={"env": NAME}` (`settings.env(...)`).
`load` walks the model and its nested groups, reads each named variable that is set
with a parser chosen from the field's type, and validates the whole: pydantic applies
the defaults of what is unset, the fields' own constraints and the models' cross-field
checks. Whatever is wrong comes back as one `SettingsError` naming the variables, never
echoing a value it cannot read safely.

A number, list or switch left empty keeps its default; empty text is empty, and empty
optional text or secret is none.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, SecretStr, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails

M = TypeVar("M", bound=BaseModel)
Parse = Callable[[str, str], Any]  # (variable, its value) -> the field's input, or KEEP
KEEP = object()  # leave the field to its default
TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off")
# Pydantic's constraint errors, said the way the parse errors are said.
_BOUNDS = {
    "greater_than_equal": ("ge", "at least"),
    "greater_than": ("gt", "greater than"),
    "less_than_equal": ("le", "at most"),
    "less_than": ("lt", "less than"),
}


class SettingsError(ValueError):
    """The environment does not describe a configuration the service can run with."""


def load(model: type[M], environ: Mapping[str, str]) -> M:
    try:
        return model.model_validate(_read(model, environ))
    except ValidationError as exc:
        problems = [_explain(model, error) for error in exc.errors()]
        raise SettingsError("; ".join(problems)) from None


def _read(model: type[BaseModel], environ: Mapping[str, str]) -> dict[str, Any]:
    """The model's input from `environ`: each set variable parsed, each group a dict."""
    found: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        group = _group(info.annotation)
        if group is not None:
            found[name] = _read(group, environ)
            continue
        variable = variable_of(info)
        if variable is None:
            continue
        parse = parser(info.annotation)  # chosen even when unset: a new type fails at once
        raw = environ.get(variable)
        value = KEEP if raw is None else parse(variable, raw)
        if value is not KEEP:
            found[name] = value
    return found


def variable_of(info: FieldInfo) -> str | None:
    extra = info.json_schema_extra
    name = extra.get("env") if isinstance(extra, dict) else None
    return name if isinstance(name, str) else None


def variable(model: type[BaseModel], field: str) -> str:
    """What an operator sets to change `field`: its variable, else the field's name."""
    return variable_of(model.model_fields[field]) or field


def ordered(group: BaseModel, *pairs: tuple[str, str]) -> None:
    """Refuse a group in which a `(low, high)` pair of fields is out of order, naming
    the variables to change (a model validator's `ValueError`, explained by `load`)."""
    model = type(group)
    wrong = [
        f"{variable(model, low)} ({_plain(getattr(group, low))}) must not exceed "
        f"{variable(model, high)} ({_plain(getattr(group, high))})"
        for low, high in pairs
        if getattr(group, low) > getattr(group, high)
    ]
    if wrong:
        raise ValueError("; ".join(wrong))


def _plain(number: float) -> str:
    """A number as it is written in the environment: `20`, not `20.0`."""
    return str(int(number)) if float(number).is_integer() else str(number)


def parser(annotation: Any) -> Parse:
    """How a variable's text becomes a value of the field's type."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (Union, types.UnionType) and type(None) in args:
        [inner] = [arg for arg in args if arg is not type(None)]
        return _optional(parser(inner))
    if origin is Literal:
        return _choice(tuple(str(arg) for arg in args))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _listed(args[0])
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    raise TypeError(f"no way to read a {annotation!r} from the environment")


def _group(annotation: Any) -> type[BaseModel] | None:
    is_group = isinstance(annotation, type) and issubclass(annotation, BaseModel)
    return annotation if is_group else None


def _int(name: str, raw: str) -> Any:
    try:
        return KEEP if raw == "" else int(raw)
    except ValueError as exc:
        raise SettingsError(f"{name} must be an integer, got {raw!r}") from exc


def _float(name: str, raw: str) -> Any:
    try:
        return KEEP if raw == "" else float(raw)
    except ValueError as exc:
        raise SettingsError(f"{name} must be a number, got {raw!r}") from exc


def _bool(name: str, raw: str) -> Any:
    if raw == "":
        return KEEP
    if raw.lower() in TRUE:
        return True
    if raw.lower() in FALSE:
        return False
    raise SettingsError(f"{name} must be true or false, got {raw!r}")


def _text(name: str, raw: str) -> Any:
    return raw


def _secret(name: str, raw: str) -> Any:
    return SecretStr(raw)


def _pair(name: str, raw: str) -> Any:
    """`key=value`, both stripped; what a key means (and its case) is the field's."""
    key, sep, value = raw.partition("=")
    if not sep or not key.strip() or not value.strip():
        raise SettingsError(f"{name}: {raw.strip()!r} is not key=value")
    return (key.strip(), value.strip())


_SCALARS: dict[Any, Parse] = {
    int: _int,
    float: _float,
    bool: _bool,
    str: _text,
    SecretStr: _secret,
    tuple[str, str]: _pair,
}


def _optional(parse: Parse) -> Parse:
    def optional(name: str, raw: str) -> Any:
        return None if raw == "" else parse(name, raw)

    return optional


def _choice(allowed: tuple[str, ...]) -> Parse:
    def choice(name: str, raw: str) -> Any:
        if raw == "":
            return KEEP
        chosen = raw.strip().lower()
        if chosen not in allowed:
            raise SettingsError(f"{name} must be one of {', '.join(allowed)}, got {chosen!r}")
        return chosen

    return choice


def _listed(item: Any) -> Parse:
    """Comma-separated items, each stripped, empty ones skipped."""
    if item is float:
        return _numbers
    parse = parser(item)

    def listed(name: str, raw: str) -> Any:
        parts = [part.strip() for part in raw.split(",") if part.strip()]
        return tuple(parse(name, part) for part in parts) if parts else KEEP

    return listed


def _numbers(name: str, raw: str) -> Any:
    if raw == "":
        return KEEP
    try:
        return tuple(float(part) for part in raw.split(","))
    except ValueError as exc:
        raise SettingsError(f"{name} must be comma-separated numbers, got {raw!r}") from exc


def _explain(model: type[BaseModel], error: ErrorDetails) -> str:
    """One problem, named by its variable; a group's own check names its variables."""
    where = _variable_at(model, error["loc"])
    ctx = error.get("ctx", {})
    if error["type"] == "value_error":
        text = str(ctx.get("error", error["msg"]))
    elif error["type"] in _BOUNDS:
        key, words = _BOUNDS[error["type"]]
        text = f"must be {words} {ctx[key]}, got {error['input']!r}"
    else:
        text = error["msg"]
    if where is None:
        return text
    return f"{where} {text}" if text.startswith("must ") else f"{where}: {text}"


def _variable_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> str | None:
    current: type[BaseModel] = model
    path: list[str] = []
    for part in loc:
        info = current.model_fields.get(str(part))
        if info is None:
            break
        path.append(str(part))
        group = _group(info.annotation)
        if group is None:
            return variable_of(info) or ".".join(path)
        current = group
    return None
