"""File-system routes in a model (`files:`): which folders hold route files, how a file's
path names its route and which of its exports handle which HTTP methods. The mechanism that
reads them is written once (`extractors/engine/filesystem.py`); a model only says, from its
framework's documentation, where the files are and how they are spelled.

```yaml
files:
  - folders: {server/api: /api, server/routes: ""}   # folder (below the package) -> prefix
    names: ["*"]            # file stems that are routes (`route`, `+server`); "*": every file
    method: suffix          # suffix: `login.post.ts` -> POST; exports: one route per exported
                            # function named like a method (`export function GET`); default:
                            # `default_method`, handled by the default export
    default_method: ANY
    index: [index]          # stems that stand for their folder (`users/index.get.ts`: /users)
    skip: ["_*"]            # file or folder names that are no route (globs)
    groups: ["(*)", "@*"]   # folder names that are no path segment (route groups, slots)
    kind: route             # route | use (every file's default export is middleware of all)
                            # | table (the default export's `scope` member is a list of route
                            # objects {method, path, handler}: Strapi's route files)
                            # | keyed (the export `scope` names is an object whose keys are
                            # routes, `'VERB /path'` or `'/path'`: Sails' config/routes.js)
                            # | invoke (the framework calls each file's default export with
                            # its `role` object: Egg's app/router.js `(app) => { … }`)
    role: app               # invoke: the role of the object passed
    attrs: {route_kind: api}  # extra attrs of the routes this rule makes
    narrow: true            # a handler that tests its request's method (`req.method !==
                            # 'POST'`, `switch (req.method)`) answers only those methods
    scope: config.matcher   # use: the export member naming the paths it applies to
    prefix: file(next.config).basePath   # a prefix of every route (a selector)
    match: ["*/routes/*"]   # globs the file's path below the folder must match (any: all)
    depth: 1                # how deep below the folder a route file may be (0: any): 1 is
                            # its own files and its folders' index files (Netlify functions)
    naming: dots            # folders (default): one path segment per folder; dots: Remix
                            # flat routes — `concerts.$city.tsx` (or the folder
                            # `concerts.$city/route.tsx`) is /concerts/:city; `_index` its
                            # parent, `_name` a pathless layout, `name_` no nesting, `$` a
                            # splat, `[.]` an escaped dot, `($lang)` an optional segment
```
A folder `""` is the package folder itself (`middleware.ts` at its root).
"""

from __future__ import annotations

from dataclasses import dataclass, field

HTTP_EXPORTS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
KINDS = ("route", "use", "invoke", "table", "keyed")
METHODS = ("suffix", "exports", "default")
NAMINGS = ("folders", "dots")


@dataclass(frozen=True)
class FileRule:
    folders: tuple[tuple[str, str], ...]  # (folder below the package, path prefix)
    names: tuple[str, ...] = ("*",)
    method: str = "default"
    default_method: str = "ANY"
    index: tuple[str, ...] = ("index",)
    skip: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    exports: tuple[str, ...] = HTTP_EXPORTS  # for `method: exports`: the export names read
    kind: str = "route"
    attrs: dict = field(default_factory=dict)
    role: str = "app"
    narrow: bool = False
    scope: str = ""
    prefix: str = ""
    naming: str = "folders"  # folders: one segment per folder | dots: `concerts.$city.tsx`
    depth: int = 0  # how many path segments below the folder a route file may name (0: any)
    match: tuple[str, ...] = ()  # globs of the file's path below the folder (empty: any)


def parse_file_rules(raw, fail) -> tuple[FileRule, ...]:
    """`files:` of a model; `fail(what)` makes the one-line error naming the model file."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise fail("`files` is a list of rules like {folders: {server/api: /api}}")
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or not isinstance(item.get("folders"), (dict, list)):
            raise fail(f"`files[{i}]` needs `folders`: a map of folder -> path prefix")
        folders = item["folders"]
        pairs = (
            tuple((str(k).strip("/"), str(v or "")) for k, v in folders.items())
            if isinstance(folders, dict)
            else tuple((str(k).strip("/"), "") for k in folders)
        )
        method = str(item.get("method", "default"))
        kind = str(item.get("kind", "route"))
        naming = str(item.get("naming", "folders"))
        if method not in METHODS or kind not in KINDS or naming not in NAMINGS:
            raise fail(f"`files[{i}]`: method is one of {METHODS}, kind one of {KINDS}, "
                       f"naming one of {NAMINGS}")  # fmt: skip

        def names(key: str, default: tuple[str, ...], item=item) -> tuple[str, ...]:
            value = item.get(key)
            if value is None:
                return default
            return (str(value),) if isinstance(value, str) else tuple(str(v) for v in value)

        out.append(FileRule(pairs, names("names", ("*",)), method,
                            str(item.get("default_method", "ANY")).upper(),
                            names("index", ("index",)), names("skip", ()), names("groups", ()),
                            names("exports", HTTP_EXPORTS), kind,
                            dict(item.get("attrs") or {}), str(item.get("role", "app")),
                            bool(item.get("narrow")), str(item.get("scope") or ""),
                            str(item.get("prefix") or ""), naming,
                            int(item.get("depth") or 0), names("match", ())))  # fmt: skip
    return tuple(out)
