"""Operation ids the backend's code gives explicitly — a decorator on the handler
(@nestjs/swagger `@ApiOperation`, drf-spectacular `@extend_schema` / `@extend_schema_view`)
or the app's naming function (FastAPI `generate_unique_id_function`, NestJS
`operationIdFactory`) — are what a generated client's functions are named after: the
frontend's call resolves to that route at high confidence, with the line that names it."""

from __future__ import annotations

from textwrap import dedent

from bridgekit import calls_of, extracted, reasons

PROJECT = {"farm": {"web": {"role": "frontend"}, "api": {"role": "api"}}}
WEB = {
    "farm/web/package.json": dedent("""\
        {"scripts": {"sdk": "openapi-ts -i ../api/openapi.json -o src/sdk"},
         "devDependencies": {"@hey-api/openapi-ts": "0.60.0"}}
        """),
}


def _calls(files: dict[str, str]) -> tuple[dict[int, dict], dict]:
    out = extracted(tmp := files.pop("__tmp__"), PROJECT, {**WEB, **files}, "farm")
    del tmp
    return {e["line"]: e for e in calls_of(out) if e["file"] == "src/app.ts"}, out


def _web(*names: str) -> str:
    lines = [f"import {{ {', '.join(names)} }} from './sdk';", ""]
    lines += [f"export const call{i} = () => {n}();" for i, n in enumerate(names)]
    return "\n".join(lines) + "\n"


def _high(edge: dict, route: str, *evidence: str) -> None:
    assert edge["dst"].endswith(f":route:{route}"), edge["dst"]
    assert (edge["attrs"]["resolution"], edge["attrs"]["confidence"]) == ("operation", "high")
    for text in evidence:
        assert any(text in ev for ev in edge["attrs"]["evidence"]), edge["attrs"]["evidence"]


def test_nestjs_api_operation_and_an_operation_id_factory(tmp_path):
    api = {
        "farm/api/package.json": '{"dependencies": {"@nestjs/core": "10", "@nestjs/swagger": "7"}}',
        "farm/api/src/cows.controller.ts": dedent("""\
            import { Controller, Get, Post } from '@nestjs/common';
            import { ApiOperation } from '@nestjs/swagger';

            @Controller('cows')
            export class CowsController {
              @Get()
              findAll() { return []; }

              @Post(':id/milk')
              @ApiOperation({ summary: 'milk a cow', operationId: 'milkCow' })
              milk() { return {}; }
            }
            """),
        "farm/api/src/app.module.ts": dedent("""\
            import { Module } from '@nestjs/common';
            import { CowsController } from './cows.controller';

            @Module({ controllers: [CowsController] })
            export class AppModule {}
            """),
        "farm/api/src/main.ts": dedent("""\
            import { NestFactory } from '@nestjs/core';
            import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
            import { AppModule } from './app.module';

            async function bootstrap() {
              const app = await NestFactory.create(AppModule);
              const config = new DocumentBuilder().setTitle('farm').build();
              const document = SwaggerModule.createDocument(app, config, {
                operationIdFactory: (controller: string, method: string) => `${method}Of${controller}`,
              });
              SwaggerModule.setup('docs', app, document);
              await app.listen(3000);
            }
            bootstrap();
            """),
    }
    got, out = _calls({"__tmp__": tmp_path, **api,
                       "farm/web/src/app.ts": _web("findAllOfCowsController", "milkCow",
                                                   "CowsController_findAll")})  # fmt: skip
    _high(got[3], "GET /cows", "operationId findAllOfCowsController (named at src/main.ts:9)")
    _high(got[4], "POST /cows/:id/milk",
          "operationId milkCow (named at src/cows.controller.ts:10)")  # fmt: skip
    assert 5 not in got  # the factory replaces the default name
    assert reasons(out)["src/app.ts:5"].startswith("generated operation CowsController_findAll")


def test_drf_spectacular_extend_schema_and_extend_schema_view(tmp_path):
    api = {
        "farm/api/requirements.txt": "djangorestframework\ndrf-spectacular\n",
        "farm/api/farm/settings.py": 'ROOT_URLCONF = "farm.urls"\n',
        "farm/api/farm/views.py": dedent("""\
            from drf_spectacular.utils import extend_schema, extend_schema_view
            from rest_framework import viewsets
            from rest_framework.decorators import api_view


            @extend_schema_view(list=extend_schema(operation_id="herdList"),
                                retrieve=extend_schema(summary="one goat"))
            class GoatViewSet(viewsets.ModelViewSet):
                @extend_schema(operation_id="goatRename")
                def partial_update(self, request, pk=None):
                    return None


            @extend_schema(operation_id="farmHealth")
            @api_view(["GET"])
            def health(request):
                return None
            """),
        "farm/api/farm/urls.py": dedent("""\
            from django.urls import include, path
            from rest_framework.routers import DefaultRouter

            from farm.views import GoatViewSet, health

            router = DefaultRouter()
            router.register("goats", GoatViewSet)

            urlpatterns = [path("api/", include(router.urls)), path("health/", health)]
            """),
    }
    got, _ = _calls({"__tmp__": tmp_path, **api,
                     "farm/web/src/app.ts": _web("herdList", "goatRename", "farmHealth",
                                                 "goatsRetrieve")})  # fmt: skip
    _high(got[3], "GET /api/goats/", "operationId herdList (named at farm/views.py:6)")
    _high(got[4], "PATCH /api/goats/<pk>/", "operationId goatRename (named at farm/views.py:9)")
    _high(got[5], "GET /health/", "operationId farmHealth (named at farm/views.py:14)")
    retrieve = got[6]  # described without an id: drf-spectacular's own name
    assert retrieve["dst"].endswith(":route:GET /api/goats/<pk>/")
    assert retrieve["attrs"]["confidence"] == "medium"


def test_fastapi_generate_unique_id_function_of_the_app_and_of_a_route(tmp_path):
    """A named function or a lambda, given to the app, a router or one route."""
    api = {
        "farm/api/requirements.txt": "fastapi\n",
        "farm/api/main.py": dedent("""\
            from fastapi import APIRouter, FastAPI
            from fastapi.routing import APIRoute


            def tagged_id(route: APIRoute):
                return f"{route.tags[0]}-{route.name}"


            def verb_id(route: APIRoute):
                return route.name + "_" + list(route.methods)[0].lower()


            app = FastAPI(generate_unique_id_function=tagged_id)
            hens = APIRouter(prefix="/hens", tags=["hens"])


            @hens.get("/")
            def count_hens():
                return 0


            def collect_id(r: APIRoute):
                return "collect" + r.name


            @hens.post("/{hen_id}/eggs", generate_unique_id_function=collect_id)
            def eggs(hen_id: int):
                return []


            @app.get("/barn", tags=["barn"], generate_unique_id_function=verb_id)
            def barn():
                return {}


            app.include_router(hens)


            def opaque_id(route: APIRoute):
                return route.name.title()


            @app.get("/coop", generate_unique_id_function=opaque_id)
            def coop():
                return {}


            @app.get("/pasture", generate_unique_id_function=lambda route: "graze_" + route.name)
            def pasture():
                return {}
            """),
    }
    got, _ = _calls({"__tmp__": tmp_path, **api,
                     "farm/web/src/app.ts": _web("hensCountHens", "collecteggs", "barnGet",
                                                 "coopCoopGet", "grazePasture")})  # fmt: skip
    _high(got[3], "GET /hens/", "operationId hens-count_hens (named at main.py:5)")
    _high(got[4], "POST /hens/{hen_id}/eggs", "operationId collecteggs (named at main.py:22)")
    _high(got[5], "GET /barn", "operationId barn_get (named at main.py:9)")  # the route's own
    coop = got[6]  # a function the engine cannot evaluate: FastAPI's default name, flagged
    assert coop["dst"].endswith(":route:GET /coop")
    assert coop["attrs"]["confidence"] == "medium"
    assert any("the naming function at main.py:39 is not read" in ev
               for ev in coop["attrs"]["evidence"])  # fmt: skip
    _high(got[7], "GET /pasture", "operationId graze_pasture (named at main.py:48)")  # a lambda
