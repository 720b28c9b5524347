"""What the models recognise at one call or decorator, before the mount tree and the
wrapper fixed point turn it into facts: typed, with their sites and the values involved."""

from __future__ import annotations

from dataclasses import dataclass

from extractors.engine.values import Site, Value


@dataclass(frozen=True)
class RouteEvent:
    """`router.get('/x', auth, handler)`, `@Get(':id')`, `@app.post('/y')`."""

    model: str
    router: Value  # the router / app / controller object (or a parameter, pending)
    method: Value  # the HTTP method(s): a literal, a choice, or a list
    path: Value
    handler: Value | None
    middleware: tuple[tuple[Value, Site], ...]  # in order, each where this route gets it
    site: Site
    handler_site: Site | None = None  # the decorated function, for decorator routes
    when: Site | None = None  # registered by a call elsewhere: that call's site (for order)
    attrs: tuple[tuple[str, str], ...] = ()  # extra route attrs a model gives (`router: app`)
    values: tuple[tuple[str, Value], ...] = ()  # read when the route is named (its `tags`, its
    # own `operation_id_function`): operation_ids.py


@dataclass(frozen=True)
class MountEvent:
    """`app.use('/api', router)`, `include_router(r, prefix=…)`, `register(plugin, {prefix})`."""

    model: str
    parent: Value
    child: Value
    path: Value | None
    middleware: tuple[tuple[Value, Site], ...]
    site: Site
    path_site: Site | None = None  # where the prefix is written (a `setting`)
    path_name: str = ""  # what the code calls it: the keyword (`prefix`) or the call (`app.use`)
    when: Site | None = None
    shared: bool = False  # the child is served on its own too (an app a function wraps)


@dataclass(frozen=True)
class UseEvent:
    """Middleware applied to everything under a router (`app.use(helmet())`)."""

    model: str
    target: Value
    path: Value | None
    middleware: tuple[tuple[Value, Site], ...]
    site: Site
    methods: tuple[str, ...] = ()  # only routes of these HTTP methods (empty: all)
    exact: bool = False  # the path names routes (NestJS forRoutes), not a prefix (app.use)
    when: Site | None = None
    ordered: bool = True  # False: applies whenever it is registered (Flask's before_request)


@dataclass(frozen=True)
class PrefixEvent:
    """A prefix every route of an app gets (`app.setGlobalPrefix('api')`)."""

    model: str
    target: Value
    path: Value
    site: Site
    path_site: Site | None = None
    path_name: str = ""
    overall: bool = False  # the app's own prefix: before versions, paths excluded from it
    exclude: tuple[str, ...] = ()  # paths it does not apply to (NestJS `{ exclude }`)
    version_prefix: str | None = None  # URI versioning: each route's version as `v<n>`
    default_version: Value | None = None


@dataclass(frozen=True)
class NamingEvent:
    """A function that names the operations of an app's or a router's routes
    (`FastAPI(generate_unique_id_function=f)`, NestJS `operationIdFactory`); `weak`: one the
    router's own yields to (`include_router(r, generate_unique_id_function=f)`)."""

    model: str
    target: Value
    fn: Value
    site: Site
    weak: bool = False


@dataclass(frozen=True)
class RequestEvent:
    """An HTTP request: `fetch(url, {method})`, `client.get(url)`, `requests.post(url)`."""

    model: str
    client: Value
    method: Value
    url: Value
    base: Value | None
    site: Site
    via: tuple[Site, ...] = ()  # where a request transform rewrote it (an interceptor)
    url_at: Site | None = None  # where the URL expression is written (to name its base)
    base_at: Site | None = None  # where the client's base is written (`baseURL: BASE`)
    function: Value | None = None  # a serverless function called by name (a callable)
    rewrite: tuple[str, Value, Site] | None = None  # a transform's base: (property, value, line)
    protocol: str = ""  # what the request carries when not plain HTTP (`graphql`)
    confidence: str = ""  # `low`: the heuristic tier took it (no model claims the code)
    why: str = ""  # why the heuristic tier took it


@dataclass(frozen=True)
class InvokeEvent:
    """The library calls a function argument with known arguments (`useSWR(key, fetcher)`,
    a plugin registered on an app): a call site of that function the code never writes."""

    model: str
    fn: Value
    args: tuple[Value, ...]
    site: Site


@dataclass(frozen=True)
class TransformEvent:
    """A function a client library runs on requests before sending them (an Angular
    interceptor, an axios request interceptor), registered on one client object (`target`,
    by its origin) or on every client of a role (`role`). `request` / `next` are the roles
    of the objects the function is handed; `url` / `base` the request's properties read.
    A call that configures the client later (`setConfig({ baseUrl })`) `sets` its base."""

    model: str
    target: Value
    role: str | None
    fn: Value
    method: str | None
    request: str
    next: str | None
    url: str
    base: str | None
    site: Site
    sets: Value | None = None  # the base a configuring call sets (`client.setConfig({ baseUrl })`)


@dataclass(frozen=True)
class GroupEvent:
    """`Route.group(() => { Route.get(…) })`: what the function passed registers on `parent`
    belongs to `group`, an object whose prefix and middleware chained calls set
    (`.prefix('api').middleware('auth')`). Applied by `engine/groups.py`."""

    model: str
    parent: Value
    group: Value
    fn: Site  # the function passed: events written inside it belong to the group
    site: Site


@dataclass(frozen=True)
class DefineEvent:
    """A table of names the build replaces (`new DefinePlugin({ __API__: … })`)."""

    model: str
    table: Value
    site: Site


@dataclass(frozen=True)
class SymbolEvent:
    """What a library makes of a function the code exports (`export const api =
    onRequest(app)`: a Firebase function and its trigger): attrs of that symbol."""

    model: str
    name: str  # the exported name
    local: str  # the name it has in its module
    site: Site
    attrs: tuple[tuple[str, object], ...] = ()


Event = (
    RouteEvent
    | NamingEvent
    | MountEvent
    | UseEvent
    | PrefixEvent
    | RequestEvent
    | InvokeEvent
    | TransformEvent
    | GroupEvent
    | DefineEvent
    | SymbolEvent
)
