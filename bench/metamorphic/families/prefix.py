"""Family 3: move a route prefix into a config factory.

JS: `app.setGlobalPrefix('api')`, `app.use('/v1', routes)`, `{ prefix: '/x' }` options read
the prefix through a new config module: NestJS's `registerAs('app', () => ({ apiPrefix }))`
(called as the factory it returns) when @nestjs/config is a dependency, else a local
`kbMetaConfig.get('apiPrefix')`. Python: FastAPI `prefix=` reads a pydantic settings field
of a fresh name (the env var it maps to is one nothing sets); Flask `url_prefix=` an
`app.config[...]` entry set just before (or a config class); Django `path('api/',
include(...))` a setting appended to the DJANGO_SETTINGS_MODULE file.
"""

from __future__ import annotations

import posixpath
import re

from tree_sitter import Node

from bench.metamorphic.component import Component
from bench.metamorphic.edits import NewFile, Plan
from bench.metamorphic.families.base import Family, claim, insert, js_insert_point, replace
from bench.metamorphic.syntax import (
    Source,
    indent_of,
    module_kind,
    of_type,
    py_import_end,
    string_value,
)

PREFIX_METHODS = {"use", "setGlobalPrefix", "register", "prefix", "mount", "route"}


class _JsConfig:
    """The component's one new config module, with a key per distinct prefix."""

    def __init__(self, comp: Component, plan: Plan):
        self.comp, self.plan = comp, plan
        self.values: list[str] = []
        self.users: dict[str, Source] = {}
        self.names: dict[str, str | None] = {}
        base = "src" if any(k.startswith("src/") for k in comp.originals) else ""
        self.nest = "@nestjs/config" in comp.dependencies()
        self.stem = posixpath.join(base, "kb-meta-app.config" if self.nest else "kb-meta-config")

    def key(self, literal: str) -> str:
        if literal not in self.values:
            self.values.append(literal)
        i = self.values.index(literal)
        return "apiPrefix" if i == 0 else f"apiPrefix{i + 1}"

    def reader(self, src: Source, literal: str) -> str | None:
        name = self.binding(src)
        return (
            None
            if name is None
            else (
                f"{name}().{self.key(literal)}"
                if self.nest
                else f"{name}.get('{self.key(literal)}')"
            )
        )

    def binding(self, src: Source) -> str | None:
        if src.rel not in self.users:
            self.users[src.rel] = src
            self.names[src.rel] = claim(
                self.plan, src, "kbMetaAppConfig" if self.nest else "kbMetaConfig"
            )
        return self.names[src.rel]

    def flush(self) -> None:
        if not self.values:
            return
        ts = any(s.language in ("typescript", "tsx") for s in self.users.values())
        esm = ts or any(module_kind(s) == "esm" for s in self.users.values())
        ext = ".ts" if ts else ".js"
        body = ", ".join(f"{self.key(v)}: {v}" for v in self.values)
        if self.nest:
            text = f"import {{ registerAs }} from '@nestjs/config';\n\nexport default registerAs('app', () => ({{ {body} }}));\n"
        elif esm:
            typed = ": Record<string, string>" if ts else ""
            text = f"const values{typed} = {{ {body} }};\n\nexport const kbMetaConfig = {{ get: (key{': string' if ts else ''}) => values[key] }};\n"
        else:
            text = f"const values = {{ {body} }};\n\nmodule.exports = {{ get: (key) => values[key] }};\n"
        self.plan.new_files.append(NewFile(self.stem + ext, [text]))
        for rel, src in sorted(self.users.items()):
            name = self.binding(src)
            spec = posixpath.relpath(self.stem, posixpath.dirname(rel) or ".")
            spec = spec if spec.startswith(".") else "./" + spec
            if not ts and esm and self.comp.explicit_extensions(src):
                spec += ".js"
            if self.nest:
                line = f"import {name} from '{spec}';\n"
            elif module_kind(src) == "esm":
                line = (
                    f"import {{ kbMetaConfig as {name} }} from '{spec}';\n"
                    if name != "kbMetaConfig"
                    else f"import {{ kbMetaConfig }} from '{spec}';\n"
                )
            else:
                line = f"const {name} = require('{spec}');\n"
            at = js_insert_point(src)
            insert(self.plan, src, at, ("\n" if at else "") + line)


def _prefix_literal(src: Source, node: Node) -> str | None:
    value = string_value(src, node)
    return (
        src.text(node)
        if value is not None
        and (value.startswith("/") or node.parent.type == "arguments")
        and " " not in value
        else None
    )


def plan_js(comp: Component, plan: Plan) -> None:
    cfg = _JsConfig(comp, plan)
    for src in comp.sources("js"):
        if src.is_vue:
            continue
        for call in of_type(src.root, "call_expression"):
            fn = call.child_by_field_name("function")
            args = call.child_by_field_name("arguments")
            if (
                fn is None
                or fn.type != "member_expression"
                or args is None
                or not args.named_children
            ):
                continue
            method = src.text(fn.child_by_field_name("property"))
            first = args.named_children[0]
            if method == "setGlobalPrefix" or (method == "use" and len(args.named_children) >= 2):
                lit = _prefix_literal(src, first)
                if lit is not None and (
                    method == "setGlobalPrefix" or string_value(src, first).startswith("/")
                ):
                    reader = cfg.reader(src, lit)
                    if reader and replace(plan, src, first, reader):
                        plan.site(
                            src.rel,
                            src.data,
                            first.start_byte,
                            f"{method}({lit}) -> config factory",
                        )
        for pair in of_type(src.root, "pair"):
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if (
                key is None
                or src.text(key) != "prefix"
                or value is None
                or pair.parent.parent.type not in ("arguments",)
            ):
                continue
            lit = string_value(src, value)
            if lit is not None and lit.startswith("/"):
                reader = cfg.reader(src, src.text(value))
                if reader and replace(plan, src, value, reader):
                    plan.site(
                        src.rel,
                        src.data,
                        value.start_byte,
                        f"prefix option {lit} -> config factory",
                    )
    cfg.flush()


# --- Python -------------------------------------------------------------------------------


def _settings_base(comp: Component) -> tuple[str, str]:
    reqs = comp.python_requirements()
    if "pydantic-settings" in reqs or "pydantic_settings" in reqs:
        return "from pydantic_settings import BaseSettings", "BaseSettings"
    if re.search(r"pydantic\W+(version\W+)?\W*(\^|~|==|<2|>=1)\W*1\.", reqs):
        return "from pydantic import BaseSettings", "BaseSettings"
    return "from pydantic import BaseModel", "BaseModel"


def _py_fastapi(comp: Component, src: Source, plan: Plan) -> None:
    sites = []
    for kw in of_type(src.root, "keyword_argument"):
        name, value = kw.child_by_field_name("name"), kw.child_by_field_name("value")
        if (
            src.text(name) == "prefix"
            and value is not None
            and value.type == "string"
            and src.text(value)[1:2] == "/"
        ):
            sites.append(value)
    if not sites:
        return
    cls, inst = claim(plan, src, "KbMetaSettings"), claim(plan, src, "kb_meta_settings")
    if cls is None or inst is None:
        plan.skip("no fresh settings name")
        return
    imp, base = _settings_base(comp)
    fields = []
    for i, value in enumerate(sites):
        field = "kb_meta_api_prefix" if i == 0 else f"kb_meta_api_prefix{i + 1}"
        if replace(plan, src, value, f"{inst}.{field}"):
            fields.append(f"    {field}: str = {src.text(value)}\n")
            plan.site(
                src.rel,
                src.data,
                value.start_byte,
                f"prefix={src.text(value)} -> pydantic settings field",
            )
    at = py_import_end(src)
    block = f"\n{imp}\n\n\nclass {cls}({base}):\n{''.join(fields)}\n\n{inst} = {cls}()\n"
    insert(plan, src, at, block)


def _py_flask(src: Source, plan: Plan) -> None:
    for kw in of_type(src.root, "keyword_argument"):
        name, value = kw.child_by_field_name("name"), kw.child_by_field_name("value")
        if src.text(name) != "url_prefix" or value is None or value.type != "string":
            continue
        call = kw.parent.parent
        fn = call.child_by_field_name("function") if call.type == "call" else None
        stmt = (
            call.parent
            if call.parent is not None and call.parent.type == "expression_statement"
            else call
        )
        receiver = (
            fn.child_by_field_name("object") if fn is not None and fn.type == "attribute" else None
        )
        key = "KB_META_URL_PREFIX"
        if (
            receiver is not None
            and receiver.type == "identifier"
            and src.text(fn.child_by_field_name("attribute")) == "register_blueprint"
            and stmt.parent is not None
            and stmt.parent.type in ("module", "block")
        ):
            app = src.text(receiver)
            if replace(plan, src, value, f'{app}.config["{key}"]'):
                insert(
                    plan,
                    src,
                    stmt.start_byte,
                    f'{app}.config["{key}"] = {src.text(value)}\n{indent_of(src, stmt)}',
                )
                plan.site(src.rel, src.data, value.start_byte, "url_prefix -> app.config entry")
            continue
        cls = claim(plan, src, "KbMetaConfig")
        if cls and replace(plan, src, value, f"{cls}.URL_PREFIX"):
            insert(
                plan,
                src,
                py_import_end(src),
                f"\n\nclass {cls}:\n    URL_PREFIX = {src.text(value)}\n",
            )
            plan.site(src.rel, src.data, value.start_byte, "url_prefix -> config class attribute")


def _django_settings(comp: Component) -> str | None:
    for rel, data in sorted(comp.originals.items()):
        if rel.rsplit("/", 1)[-1] in ("manage.py", "wsgi.py", "asgi.py"):
            m = re.search(rb"DJANGO_SETTINGS_MODULE[\"']\s*,\s*[\"']([\w.]+)[\"']", data)
            if m:
                path = m.group(1).decode().replace(".", "/") + ".py"
                if path in comp.originals:
                    return path
    return None


def _py_django(comp: Component, src: Source, plan: Plan, settings: list) -> None:
    alias: str | None = None
    for call in of_type(src.root, "call"):
        fn = call.child_by_field_name("function")
        args = call.child_by_field_name("arguments")
        if (
            fn is None
            or src.text(fn) not in ("path", "re_path")
            or args is None
            or len(args.named_children) < 2
        ):
            continue
        first, second = args.named_children[0], args.named_children[1]
        if (
            first.type != "string"
            or second.type != "call"
            or src.text(second.child_by_field_name("function")) != "include"
        ):
            continue
        if not src.text(first)[1:-1]:
            continue
        first_use = alias is None
        alias = alias or claim(plan, src, "kb_meta_settings")
        key = f"KB_META_PREFIX_{len(settings) + 1}"
        if alias and replace(plan, src, first, f"{alias}.{key}"):
            settings.append((key, src.text(first)))
            if first_use:
                at = py_import_end(src)
                insert(
                    plan,
                    src,
                    at,
                    ("\n" if at else "") + f"from django.conf import settings as {alias}\n",
                )
            plan.site(
                src.rel,
                src.data,
                first.start_byte,
                f"path({src.text(first)}, include) -> Django setting {key}",
            )


def plan_py(comp: Component, plan: Plan) -> None:
    settings_file = _django_settings(comp)
    settings: list[tuple[str, str]] = []
    for src in comp.sources("python"):
        if b"fastapi" in src.data.lower():
            _py_fastapi(comp, src, plan)
        if b"flask" in src.data.lower() or b"Blueprint" in src.data:
            _py_flask(src, plan)
        if settings_file is not None and b"include(" in src.data:
            _py_django(comp, src, plan, settings)
    if settings:
        data = comp.originals[settings_file]
        text = "".join(f"{k} = {v}\n" for k, v in settings)
        src = comp.source(settings_file)
        insert(plan, src, len(data), ("" if data.endswith(b"\n") else "\n") + "\n" + text)
    elif settings_file is None and any(
        b"include(" in s.data and b"django" in s.data for s in comp.sources("python")
    ):
        plan.skip("no DJANGO_SETTINGS_MODULE file found")


def plan(comp: Component, plan_: Plan) -> None:
    plan_js(comp, plan_)
    plan_py(comp, plan_)


FAMILY = Family(3, "prefix_config", "move a route prefix into a config factory", plan)
