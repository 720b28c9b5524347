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
