"""The model file format: one YAML file per framework, client library, config idiom or
gateway (`models/{server,client,config,gateway}/*.yaml`), read into typed records.

A model says, from the library's documentation:
- `detect`: the manifest entries that mean the library is used (npm / pypi names);
- `objects`: the roles of the objects it makes (app, router, client …) and how each is made:
  `call: <module>.<path>` (called), `new:` (constructed), `module:` (the module itself is
  the object), `global:` (a global name), `member:` (any value's member of that name, e.g.
  `$axios`), `type:` (a parameter or field declared with that type), `decorator:` (a class
  decorated with it) — each with `props` read from the making call's arguments;
- `operations`: what calling a method of such an object does — `route`, `mount`, `use`
  (middleware), `prefix` (a global prefix), `request` (an HTTP call), `returns` (another
  object, e.g. a chained route), `invoke` (the library calls a function argument), `env`
  (an environment read), `config` (a configuration read);
- `decorators`: decorators that make routes or middleware (`@Get(':id')`, `@app.get`);
- `router`: how a router's own properties enter its routes (`prefix: prop.prefix`);
- `params`: the path-parameter syntax (`colon`, `brace`, `angle`, `bracket`);
- `aliases`: method names that are not HTTP methods (`all: ANY`, `del: DELETE`);
- `hooks`: named Python hooks (`models/hooks.py`) for what data cannot say;
- client-side: `providers` (the keys of a DI provider literal), `stores` (roles whose
  assigned members every component instance has), `paths` (import aliases a framework
  defines), `generated` (header markers of a generator's files); the `transform`, `install`
  and `globals` actions and an operation's `dependency:` (README.md, "The format").
Selectors (`arg0`, `kw.prefix`, `arg0.baseURL`, `prop.path`, `name`, `rest`, `'GET'`, a
choice `a | b`) are parsed by `selectors.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from extractors.models.filerules import FileRule, parse_file_rules
from extractors.models.selectors import Selector, parse_selector

KINDS = ("server", "client", "config", "gateway", "generator", "orm", "test")
LANGUAGES = ("js", "python")
MAKERS = ("call", "new", "module", "global", "member", "type", "decorator", "subclass",
          "file")  # fmt: skip
ACTIONS = ("route", "mount", "use", "prefix", "request", "returns", "invoke", "env", "config",
           "setting", "handlers", "transform", "install", "globals", "defines", "folder",
           "merge", "names")  # fmt: skip
PROVIDER_KEYS = ("token", "value", "class", "factory", "alias")
PARAM_STYLES = ("colon", "brace", "angle", "bracket")


class ModelError(ValueError):
    """A model file that does not follow the format: `path: what — how to fix`."""


@dataclass(frozen=True)
class Maker:
    how: str  # one of MAKERS
    target: str  # dotted name: `express.Router`, `fetch`, `$axios`, `HttpClient`
    props: dict[str, Selector] = field(default_factory=dict)
    when: dict[str, Selector] = field(default_factory=dict)  # {present|absent: selector}
    files: tuple[str, ...] = ()  # only in files whose name matches one of these globs


@dataclass(frozen=True)
class Operation:
    on: tuple[str, ...]  # object roles (`of:` in the file: YAML reads a bare `on` as true)
    calls: tuple[str, ...]  # method names; "()" = the object called itself
    action: str  # one of ACTIONS
    spec: dict[str, Selector]  # the action's fields as selectors
    returns: str | None = None  # role of the object the call returns ("self": the receiver)
    returns_props: dict[str, Selector] = field(default_factory=dict)
    hook: str | None = None
    yields: Selector | None = None  # the call's value is one of its arguments (`fp(plugin)`)
    dependency: Selector | None = None  # the call's value is what is injected for a token
    data: dict = field(default_factory=dict)  # plain data a hook reads (a resource's actions)
    instance: Selector | None = None  # the call's value is an instance of that class (`get()`)


@dataclass(frozen=True)
class Decorator:
    names: dict[str, str]  # decorator name -> HTTP method ("" when not a route)
    modules: tuple[str, ...]  # the modules the decorator is imported from (any, when none)
    on: str  # class | method | function
    action: str  # route | makes | use
    spec: dict[str, Selector]
    role: str | None = None  # for `makes`: the role of the object the class becomes
    children: tuple[Selector, ...] = ()  # what a made object mounts (`@Module({controllers})`)
    per_method: bool = False  # `describes` on a class: each keyword names a method, its value
    # the decorator call that describes that method (`@extend_schema_view(list=extend_schema(…))`)


@dataclass(frozen=True)
class Fixtures:
    """Functions a test framework passes by parameter name (pytest's fixtures)."""

    decorators: tuple[str, ...]  # what marks a fixture, dotted (`pytest.fixture`)
    shared: tuple[str, ...] = ()  # files whose fixtures their folder and those below see
    files: tuple[str, ...] = ()  # test modules (globs): only their functions are filled


@dataclass(frozen=True)
class NameRule:
    """A module-level name a framework reads by convention (Django's `urlpatterns`,
    `ROOT_URLCONF`): what a module assigns, adds or appends to it is handed to `hook`, on
    that module's object of `role`."""

    name: str
    role: str
    hook: str
    data: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Model:
    id: str
    kind: str
    language: str
    title: str
    docs: str
    path: Path
    detect: dict[str, tuple[str, ...]]
    modules: tuple[str, ...]
    objects: dict[str, tuple[Maker, ...]]
    operations: tuple[Operation, ...]
    decorators: tuple[Decorator, ...]
    router: dict[str, Selector]
    params: str
    aliases: dict[str, str]
    hooks: tuple[str, ...]
    implicit: dict[str, tuple[str, ...]]  # parent role -> child roles mounted implicitly
    router_roles: tuple[str, ...] = ()  # roles routes hang off (besides those with operations)
    reads: dict[str, str] = field(default_factory=dict)  # role -> what reading a member is: env
    injects: tuple[str, ...] = ()  # markers a handler's parameters inject through (`Depends`)
    providers: dict[str, str] = field(default_factory=dict)  # DI provider literal keys
    generated: tuple[str, ...] = ()  # header markers of the files a generator writes
    paths: dict[str, tuple[str, ...]] = field(default_factory=dict)  # import aliases it defines
    stores: tuple[str, ...] = ()  # roles whose assigned members every instance has
    phases: tuple[tuple[str, bool], ...] = ()  # (phase, registration order reversed), run order
    roots: tuple[str, ...] = ("app",)  # roles that are served as they are (not mounted by anyone)
    class_views: dict = field(default_factory=dict)  # {role, methods}: a class view's routes
    operation_ids: dict = field(default_factory=dict)  # {args}: what a naming function gets
    default_phase: str = ""
    notes: str = ""
    part_of: str | None = None  # an extension: its facts are another model's (or a kind's)
    files: tuple[FileRule, ...] = ()  # file-system routes (filerules.py)
    names: tuple[NameRule, ...] = ()  # module-level names read by convention
    optional: tuple[str, ...] = ()  # packages whose apps often need none of its facts ("*": all)
    env_reads: dict = field(default_factory=dict)  # how its env reads are labelled (env_fields.py)
    # a library base class (`module#Class`, or a role of this model's objects) -> the class
    # attributes it gives every class derived from it, each an object of a role (an ORM's
    # `Model.objects` / `Model.query`: its `model` prop is the class it was read on)
    class_members: dict[str, dict[str, str]] = field(default_factory=dict)
    # a library global standing for what a function the component registers returns
    # (`flask_login.current_user`: the user loader's) -> the methods that register it
    proxies: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # an object's role used as a base class -> its prop naming the class it derives from
    # (`db.Model` with `SQLAlchemy(model_class=Base)`: `model_class`)
    base_classes: dict[str, str] = field(default_factory=dict)
    instances: tuple[str, ...] = ()  # roles whose other members are their `model`'s instance's
    # roles whose objects, exported by a file-system route, serve their routes at the file's
    # path (next-connect's `export default router.handler()`)
    file_routers: tuple[str, ...] = ()
    # a role -> the props (dotted paths) that may name an attribute the object gives its
    # `model` class, holding instances of the class that declares the object (a backref)
    backrefs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    fixtures: Fixtures | None = None  # what a test framework passes by parameter name

    @property
    def family(self) -> str:
        """The language family of the files it reads, as the adapters name it (`py`, `js`)."""
        return "py" if self.language == "python" else "js"


def _fail(path: Path, what: str) -> ModelError:
    return ModelError(f"{path}: {what} — see extractors/models/README.md for the format")


def _names(value, path: Path, key: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise _fail(path, f"`{key}` must be a name or a list of names, got {value!r}")


def _selectors(raw, path: Path, key: str) -> dict[str, Selector]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise _fail(path, f"`{key}` must be a mapping of field: selector")
    out = {}
    for name, text in raw.items():
        try:
            out[str(name)] = parse_selector(text)
        except ValueError as exc:
            raise _fail(path, f"`{key}.{name}`: {exc}") from None
    return out


def _makers(raw, path: Path) -> dict[str, tuple[Maker, ...]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise _fail(path, "`objects` must map a role to a list of makers")
    out: dict[str, tuple[Maker, ...]] = {}
    for role, makers in raw.items():
        items = makers if isinstance(makers, list) else [makers]
        found = []
        for item in items:
            if not isinstance(item, dict):
                raise _fail(
                    path, f"`objects.{role}`: each maker is a mapping like {{call: pkg.fn}}"
                )
            if set(item.get("when") or {}) - {"present", "absent"}:
                raise _fail(path, f"`objects.{role}.when` maps present / absent to a selector")
            how = next((k for k in MAKERS if k in item), None)
            if how is None:
                raise _fail(path, f"`objects.{role}`: a maker needs one of {', '.join(MAKERS)}")
            found.append(Maker(how, str(item[how]), _selectors(item.get("props"), path, f"objects.{role}.props"),
                               _selectors(item.get("when"), path, f"objects.{role}.when"),
                               _names(item.get("files"), path, f"objects.{role}.files")))  # fmt: skip
        out[str(role)] = tuple(found)
    return out


def _operations(raw, path: Path) -> tuple[Operation, ...]:
    out = []
    for i, item in enumerate(raw or []):
        if not isinstance(item, dict):
            raise _fail(path, f"`operations[{i}]` must be a mapping")
        action = next((k for k in ACTIONS if k in item and k != "returns"), None)
        returns = item.get("returns")
        valued = any(k in item for k in ("yields", "dependency", "instance"))
        if action is None and returns is None and not valued:
            if not item.get("hook"):
                raise _fail(path, f"`operations[{i}]` needs one of {', '.join(ACTIONS)} or a hook")
            action = "hook"  # what it does is the hook's alone
        spec = item.get(action) if action and action != "hook" else None
        if spec is not None and not isinstance(spec, dict):
            raise _fail(path, f"`operations[{i}].{action}` must be a mapping of field: selector")
        returns_role, returns_props = None, {}
        if isinstance(returns, dict):
            returns_role = str(returns.get("role", "self"))
            returns_props = _selectors(returns.get("props"), path, f"operations[{i}].returns.props")
        elif returns is not None:
            returns_role = str(returns)
        out.append(Operation(_names(item.get("of"), path, "of"), _names(item.get("call"), path, "call"),
                             action or "returns",
                             _selectors(spec, path, f"operations[{i}].{action}"),
                             returns_role, returns_props, item.get("hook"),
                             parse_selector(item["yields"]) if "yields" in item else None,
                             parse_selector(item["dependency"]) if "dependency" in item else None,
                             dict(item.get("data") or {}),
                             parse_selector(item["instance"]) if "instance" in item else None))  # fmt: skip
    return tuple(out)


def _decorators(raw, path: Path) -> tuple[Decorator, ...]:
    out = []
    for i, item in enumerate(raw or []):
        if not isinstance(item, dict):
            raise _fail(path, f"`decorators[{i}]` must be a mapping")
        names = item.get("names") or item.get("name")
        if isinstance(names, str):
            names = {names: ""}
        elif isinstance(names, list):
            names = {str(n): "" for n in names}
        if not isinstance(names, dict) or not names:
            raise _fail(path, f"`decorators[{i}]` needs `name` or `names`")
        action = next((k for k in ("route", "makes", "use", "describes") if k in item), None)
        if action is None:
            raise _fail(path, f"`decorators[{i}]` needs one of route, makes, use, describes")
        spec = item.get(action) or {}
        role = None
        if action == "makes":
            role = str(spec.pop("role", "controller")) if isinstance(spec, dict) else None
        children = tuple(parse_selector(c) for c in (item.get("children") or []))
        module = item.get("module")
        modules = tuple(
            str(m) for m in (module if isinstance(module, list) else [module] if module else [])
        )
        out.append(Decorator({str(k): str(v or "") for k, v in names.items()}, modules,
                             str(item.get("target", "method")), action,
                             _selectors(spec, path, f"decorators[{i}].{action}"), role, children,
                             bool(item.get("per_method"))))  # fmt: skip
    return tuple(out)


def _phases(raw, path: Path) -> tuple[tuple[str, bool], ...]:
    """`phases: [middleware, {name: dependency}, {name: asgi, order: reversed}]`."""
    out = []
    for item in raw or []:
        if isinstance(item, str):
            out.append((item, False))
        elif isinstance(item, dict) and item.get("name"):
            out.append((str(item["name"]), item.get("order") == "reversed"))
        else:
            raise _fail(
                path, f"`phases` items are names or {{name, order: reversed}}, got {item!r}"
            )
    return tuple(out)


def _providers(raw, path: Path) -> dict[str, str]:
    """`{token: provide, value: useValue, ...}`: the keys of a DI provider object literal."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or "token" not in raw or set(raw) - set(PROVIDER_KEYS):
        raise _fail(
            path, f"`providers` maps {', '.join(PROVIDER_KEYS)} to object keys (token required)"
        )
    return {str(k): str(v) for k, v in raw.items()}


def _optional(raw: dict, path: Path) -> tuple[str, ...]:
    """`routes_optional:` (a server model) / `calls_optional:` (a client model): `true` (every
    package it detects) or a list of packages — a frontend meta-framework that can serve
    routes or make calls, whose apps often do neither: no coverage warning for them."""
    key = "routes_optional" if "routes_optional" in raw else "calls_optional"
    value = raw.get(key)
    if value is True:
        return ("*",)
    return _names(value or None, path, key)


def _name_rules(raw, path: Path) -> tuple[NameRule, ...]:
    """`names: [{name: urlpatterns, role: urlconf, hook: urlconf_patterns, data: {...}}]`."""
    out = []
    for i, item in enumerate(raw or []):
        if not isinstance(item, dict) or not all(item.get(k) for k in ("name", "role", "hook")):
            raise _fail(path, f"`names[{i}]` needs `name`, `role` and `hook`")
        out.append(NameRule(str(item["name"]), str(item["role"]), str(item["hook"]),
                            dict(item.get("data") or {})))  # fmt: skip
    return tuple(out)


# libyaml's safe loader when PyYAML was built with it (every model is read by every
# extraction process; the Python loader took a quarter of a second for all of them)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_model(path: Path) -> Model:
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506 - safe
    except Exception as exc:  # noqa: BLE001 - one line naming the file
        raise _fail(path, f"not valid YAML ({exc})") from None
    if not isinstance(raw, dict):
        raise _fail(path, "a model is a YAML mapping")
    for key in ("id", "kind", "language"):
        if not raw.get(key):
            raise _fail(path, f"missing `{key}`")
    if raw["kind"] not in KINDS:
        raise _fail(path, f"`kind` must be one of {', '.join(KINDS)}")
    if raw["language"] not in LANGUAGES:
        raise _fail(path, f"`language` must be one of {', '.join(LANGUAGES)}")
    params = raw.get("params", "colon")
    if params not in PARAM_STYLES:
        raise _fail(path, f"`params` must be one of {', '.join(PARAM_STYLES)}")
    detect = raw.get("detect") or {}
    if not isinstance(detect, dict):
        raise _fail(path, "`detect` maps npm / pypi to package names")
    implicit = raw.get("implicit") or {}
    return Model(
        id=str(raw["id"]),
        kind=str(raw["kind"]),
        language=str(raw["language"]),
        title=str(raw.get("title") or raw["id"]),
        docs=str(raw.get("docs") or ""),
        path=path,
        detect={k: _names(v, path, f"detect.{k}") for k, v in detect.items()},
        modules=_names(raw.get("modules"), path, "modules"),
        objects=_makers(raw.get("objects"), path),
        operations=_operations(raw.get("operations"), path),
        decorators=_decorators(raw.get("decorators"), path),
        router=_selectors(raw.get("router"), path, "router"),
        params=str(params),
        aliases={str(k): str(v) for k, v in (raw.get("aliases") or {}).items()},
        hooks=_names(raw.get("hooks"), path, "hooks"),
        implicit={str(k): _names(v, path, f"implicit.{k}") for k, v in implicit.items()},
        router_roles=_names(raw.get("router_roles"), path, "router_roles"),
        reads={str(k): str(v) for k, v in (raw.get("reads") or {}).items()},
        injects=_names(raw.get("injects"), path, "injects"),
        providers=_providers(raw.get("providers"), path),
        generated=tuple(m.lower() for m in _names(raw.get("generated"), path, "generated")),
        paths={str(k): _names(v, path, f"paths.{k}") for k, v in (raw.get("paths") or {}).items()},
        stores=_names(raw.get("stores"), path, "stores"),
        phases=_phases(raw.get("phases"), path),
        roots=_names(raw.get("roots"), path, "roots") or ("app",),
        class_views=dict(raw.get("class_views") or {}),
        operation_ids=dict(raw.get("operation_ids") or {}),
        default_phase=str(raw.get("default_phase") or ""),
        notes=str(raw.get("notes") or ""),
        part_of=str(raw["part_of"]) if raw.get("part_of") else None,
        files=parse_file_rules(raw.get("files"), lambda what: _fail(path, what)),
        names=_name_rules(raw.get("names"), path),
        optional=_optional(raw, path),
        file_routers=_names(raw.get("file_routers"), path, "file_routers"),
        env_reads=dict(raw.get("env_reads") or {}),
        class_members=_class_members(raw.get("class_members"), path),
        proxies={
            k.replace("#", "."): _names(v, path, f"proxies.{k}")
            for k, v in _mapping(raw, "proxies", path)
        },  # fmt: skip
        instances=_names(raw.get("instances"), path, "instances"),
        base_classes={k: str(v) for k, v in _mapping(raw, "base_classes", path)},
        backrefs={k: _names(v, path, f"backrefs.{k}") for k, v in _mapping(raw, "backrefs", path)},
        fixtures=_fixtures(raw.get("fixtures"), path),
    )


def _fixtures(raw, path: Path) -> Fixtures | None:
    """`fixtures: {decorators: ["pytest#fixture"], shared: [conftest.py], files: [test_*.py]}`."""
    if not raw:
        return None
    if not isinstance(raw, dict) or not raw.get("decorators"):
        raise _fail(path, "`fixtures` needs `decorators` (and may name `shared` files)")
    decorators = _names(raw["decorators"], path, "fixtures.decorators")
    return Fixtures(tuple(d.replace("#", ".") for d in decorators),
                    _names(raw.get("shared"), path, "fixtures.shared"),
                    _names(raw.get("files"), path, "fixtures.files"))  # fmt: skip


def _mapping(raw: dict, key: str, path: Path) -> list[tuple[str, object]]:
    """The (key, value) items of an optional mapping field, or one line saying it is not one."""
    value = raw.get(key) or {}
    if not isinstance(value, dict):
        raise _fail(path, f"`{key}` must be a mapping")
    return [(str(k), v) for k, v in value.items()]


def _class_members(raw, path: Path) -> dict[str, dict[str, str]]:
    """`class_members: {"django.db.models#Model": {objects: manager}}`."""
    if not raw:
        return {}
    if not isinstance(raw, dict) or not all(isinstance(v, dict) for v in raw.values()):
        raise _fail(path, "`class_members` maps a base class to {attribute: role}")
    return {str(base): {str(k): str(v) for k, v in attrs.items()} for base, attrs in raw.items()}
