"""Outbound HTTP calls. JS family: fetch, axios (calls, `axios({method, url})`,
`axios.create` instances, `defaults.baseURL`, request interceptors that set the base), ky,
got, superagent, Angular HttpClient (+ a registered interceptor's base, `environment.*`
per build configuration: angular.py), SWR URL keys and GraphQL clients (hooks.py), Firebase
`httpsCallable`; wrappers followed to their concrete callers (summaries.py), generated SDKs
(generated.py), run-time choices (choices.py, dyncallee.py, props.py). Python: `requests` /
`httpx` (sessions, `base_url`, `self.<attr>` bases) and Python wrappers (pywrappers.py).

http_call node (the contract `warehouse/http_bridge.py` reads; keep stable):
- qualifier `<name>@<rel>:<line>`; name `METHOD {ENV_VAR}path`, `METHOD https://host/path` or
  `METHOD /relative/path`; file:line of the concrete call site (a wrapper's or SDK method's
  caller; for a chained `.post(` the line of the method name).
- attrs: `method` (upper case), `url_template` (full URL, `{ENV}` for env parts and `{param}`
  for runtime values), `env_var` (env var the base comes from, if any; `environment.apiUrl`
  for an Angular environment key), `base` (literal base URL, e.g. `https://api.sendgrid.com`,
  an instance's literal baseURL, or a constant's value), `base_name` (the constant/env/
  interceptor the base came from), `path` (what follows the base or env var),
  `resolved_via` (wrapper | instance | default | constant | env | literal | callable |
  interceptor | generated), `client` (fetch, axios, ky, got, superagent, angular, swr,
  graphql, requests, httpx, firebase), `wrapper` (symbol id, when the call went through
  one), `hops` (["rel:line", ...] wrapper/interceptor/generated lines between the call site
  and the client call, outermost first), `candidate` (true: one branch of a run-time choice;
  the choice itself is an unresolved row), `generated_client` + `sdk_method` (an SDK call),
  `hook` (swr), `graphql` (true), `function` (callables only).
CALLS_HTTP: enclosing symbol (or code_file) → http_call, file:line of the call site.
config_value nodes `environment.<key>` (Angular environments): `values` {file: value}.
setting nodes: a named API base URL (constant or interceptor rewrite) at the line it is
written, `base_setting` on each call built on it (bases.py); the Angular interceptor
registration order (angular.py).
Catalog rows `hosts`: every absolute host literally written (a `{VAR}` part kept as is), and
the known host of each imported third-party SDK (`sdk` attr; sdks.py).
A URL or callee that cannot be known statically → `unresolved` kind `http_call`,
"dynamic URL: <why>" (naming the candidates when they are known).
"""

from __future__ import annotations

from extractors.base import ComponentContext
from extractors.http.angular import environment_values, interceptor_order
from extractors.http.dyncallee import chosen_callees
from extractors.http.emit import HttpOut
from extractors.http.generated import GeneratedClients
from extractors.http.hooks import library_calls
from extractors.http.interceptors import axios_interceptors
from extractors.http.js import JsHttpCalls
from extractors.http.props import prop_functions
from extractors.http.python import scan_python
from extractors.http.pywrappers import python_wrapper_calls
from extractors.http.sdks import sdk_hosts
from extractors.http.summaries import wrapper_calls
from extractors.js.common import js_files, modules
from extractors.shared import CodeSymbols, JsSymbols

NAME = "http_calls"
PROVIDES = ()
REQUIRES = (JsSymbols, CodeSymbols)  # calls are attributed to symbols of every language


def extract(ctx: ComponentContext) -> None:
    out = HttpOut(ctx)
    calls = JsHttpCalls(out)
    files = [sf for sf in js_files(ctx) if sf.rel in modules(ctx)]
    sdk = GeneratedClients(calls)
    for sf in files:
        calls.scan_clients(sf)
        sdk.scan(sf)
    for sf in files:
        axios_interceptors(calls, sf)
    summarised = sdk.client_files()  # the generated client's own files: summarised
    for sf in files:
        if sf.rel not in summarised:
            calls.scan_calls(sf)
    library_calls(calls)
    wrapper_calls(calls)
    sdk.sites()
    chosen_callees(calls, sdk)
    prop_functions(calls)
    environment_values(ctx)
    interceptor_order(ctx)
    py_wrappers: dict = {}
    for sf in sorted(ctx.by_language("python"), key=lambda f: f.rel):
        scan_python(out, sf, py_wrappers)
    python_wrapper_calls(out, py_wrappers)
    out.catalog()
    sdk_hosts(ctx)
