"""Angular HttpClient call sites: the service line is the call site, a registered interceptor's
base joins the template (its line a hop), a ternary in the URL gives candidates plus an
unresolved row; an interceptor nobody registers changes nothing."""

from __future__ import annotations

from jsrepo import extract

SERVICE = """
    import { Injectable, inject } from '@angular/core';
    import { HttpClient } from '@angular/common/http';

    @Injectable({ providedIn: 'root' })
    export class GardenService {
      private readonly web = inject(HttpClient);

      constructor(private readonly http: HttpClient) {}

      plants(kind: { wild: boolean }) {
        return this.http.get<unknown>(
          '/plants' + (kind.wild ? '/wild' : ''),
        );
      }

      plant(id: string) {
        return this.http.get(`/plants/${id}`);
      }

      water(id: string) {
        return this.web
          .post('/plants/' + id + '/water', {});
      }
    }
    """

INTERCEPTOR = """
    import { HttpInterceptorFn } from '@angular/common/http';

    export const gardenBase: HttpInterceptorFn = (req, next) => {
      return next(req.clone({ url: `https://api.garden.example/v1${req.url}` }));
    };
    """

CONFIG = """
    import { provideHttpClient, withInterceptors } from '@angular/common/http';
    import { gardenBase } from './garden-base.interceptor';

    export const appConfig = { providers: [provideHttpClient(withInterceptors([gardenBase]))] };
    """


def _calls(f):
    return sorted(
        (n.file.rsplit("/", 1)[-1], n.line, n.name, bool(n.attrs.get("candidate")))
        for n in f.raw.nodes
        if n.kind == "http_call"
    )


def test_service_calls_with_the_registered_interceptor_base(tmp_path):
    f = extract(
        tmp_path,
        {
            "src/app/garden.service.ts": SERVICE,
            "src/app/garden-base.interceptor.ts": INTERCEPTOR,
            "src/app/app.config.ts": CONFIG,
        },
    )
    base = "https://api.garden.example/v1"
    assert _calls(f) == [
        ("garden.service.ts", 11, f"GET {base}/plants", True),
        ("garden.service.ts", 11, f"GET {base}/plants/wild", True),
        ("garden.service.ts", 17, f"GET {base}/plants/{{id}}", False),
        ("garden.service.ts", 22, f"POST {base}/plants/{{id}}/water", False),
    ]
    water = next(n for n in f.raw.nodes if n.kind == "http_call" and n.line == 22)
    assert water.attrs["hops"] == ["src/app/garden-base.interceptor.ts:4"]
    assert (water.attrs["base"], water.attrs["path"]) == (base, "/plants/{id}/water")
    assert water.attrs["resolved_via"] == "interceptor"
    [row] = [u for u in f.unresolved if u.kind == "http_call"]
    assert (row.file, row.line) == ("src/app/garden.service.ts", 12)
    assert "kind.wild" in row.reason and "/plants/wild" in row.reason


def test_an_unregistered_interceptor_adds_no_base(tmp_path):
    f = extract(
        tmp_path,
        {"src/app/garden.service.ts": SERVICE, "src/app/garden-base.interceptor.ts": INTERCEPTOR},
    )
    assert ("garden.service.ts", 17, "GET /plants/{id}", False) in _calls(f)


ORDERED = """
    import { provideHttpClient, withInterceptors } from '@angular/common/http';
    import { gardenBase } from './garden-base.interceptor';
    import { gardenToken } from './garden-token.interceptor';

    export const appConfig = {
      providers: [
        provideHttpClient(withInterceptors([gardenBase, gardenToken])),
      ],
    };
    """

TOKEN = """
    import { HttpInterceptorFn } from '@angular/common/http';

    export const gardenToken: HttpInterceptorFn = (req, next) => next(req);
    """

MODULE = """
    import { NgModule } from '@angular/core';
    import { HTTP_INTERCEPTORS } from '@angular/common/http';
    import { SoilInterceptor, RainInterceptor } from './weather.interceptors';
    @NgModule({
      providers: [
        { provide: HTTP_INTERCEPTORS, useClass: SoilInterceptor, multi: true },
        { provide: HTTP_INTERCEPTORS, useClass: RainInterceptor, multi: true },
      ],
    })
    export class CoreModule {}
    """

WEATHER = """
    import { HttpHandler, HttpInterceptor, HttpRequest } from '@angular/common/http';

    export class SoilInterceptor implements HttpInterceptor {
      intercept(req: HttpRequest<unknown>, next: HttpHandler) { return next.handle(req); }
    }

    export class RainInterceptor implements HttpInterceptor {
      intercept(req: HttpRequest<unknown>, next: HttpHandler) { return next.handle(req); }
    }
    """


def test_the_interceptor_base_and_the_registration_order_are_settings(tmp_path):
    f = extract(
        tmp_path,
        {
            "src/app/garden.service.ts": SERVICE,
            "src/app/garden-base.interceptor.ts": INTERCEPTOR,
            "src/app/garden-token.interceptor.ts": TOKEN,
            "src/app/app.config.ts": ORDERED,
            "src/app/core.module.ts": MODULE,
            "src/app/weather.interceptors.ts": WEATHER,
        },
    )
    settings = {(n.file, n.line): n for n in f.raw.nodes if n.kind == "setting"}
    base = settings[("src/app/garden-base.interceptor.ts", 4)]
    assert (base.name, base.attrs["value"]) == ("url", "https://api.garden.example/v1")
    assert base.attrs["refers_to"] == "api.garden.example"
    declares = f.edges("DECLARES")
    key = base.id.split(":", 1)[1]
    assert ("symbol:src/app/garden-base.interceptor.ts#gardenBase", key) in declares
    assert ("code_file:src/app/garden-base.interceptor.ts", key) in declares
    calls = [n for n in f.raw.nodes if n.kind == "http_call"]
    assert calls and {n.attrs["base_setting"] for n in calls} == {base.id}
    # the host is written in the interceptor, not at the service's call sites
    hosts = {(r.name, r.file, r.line) for r in f.catalog if r.table == "hosts"}
    assert hosts == {("api.garden.example", "src/app/garden-base.interceptor.ts", 4)}
    order = settings[("src/app/app.config.ts", 7)]
    assert (order.name, order.attrs["value"]) == ("withInterceptors", "gardenBase, gardenToken")
    assert order.attrs["about"] == "request interceptors in order"
    assert order.attrs["interceptors"] == [
        "p/c:symbol:src/app/garden-base.interceptor.ts#gardenBase",
        "p/c:symbol:src/app/garden-token.interceptor.ts#gardenToken",
    ]
    assert ("symbol:src/app/app.config.ts#appConfig", order.id.split(":", 1)[1]) in declares
    classes = settings[("src/app/core.module.ts", 6)]
    assert (classes.name, classes.attrs["value"]) == (
        "HTTP_INTERCEPTORS",
        "SoilInterceptor, RainInterceptor",
    )
