"""NestJS: controller routes under the global prefix, RouterModule paths and versions; module
middleware, guards and pipes in order at their usage lines; handler → injected service."""

from __future__ import annotations

from jsrepo import extract

LIBRARY = {
    "package.json": '{"dependencies": {"@nestjs/core": "10", "@nestjs/common": "10"}}',
    "src/main.ts": """
        import { NestFactory } from '@nestjs/core';
        import { VersioningType } from '@nestjs/common';
        import helmet from 'helmet';
        import { RootModule } from './root.module';
        import { TraceInterceptor } from './common/trace.interceptor';

        async function start() {
          const server = await NestFactory.create(RootModule);
          server.setGlobalPrefix('lib', { exclude: ['health'] });
          server.enableVersioning({ type: VersioningType.URI });
          server.use(helmet());
          server.useGlobalInterceptors(new TraceInterceptor());
          await server.listen(3000);
        }
        start();
        """,
    "src/root.module.ts": """
        import { Module, MiddlewareConsumer, NestModule, RequestMethod } from '@nestjs/common';
        import { RouterModule } from '@nestjs/core';
        import { ShelfModule } from './shelf/shelf.module';
        import { HealthController } from './health.controller';
        import { StampMiddleware } from './common/stamp.middleware';
        import { ShelfController } from './shelf/shelf.controller';

        @Module({
          imports: [ShelfModule, RouterModule.register([{ path: 'catalog', module: ShelfModule }])],
          controllers: [HealthController],
        })
        export class RootModule implements NestModule {
          configure(consumer: MiddlewareConsumer) {
            consumer
              .apply(StampMiddleware)
              .forRoutes(
                { path: 'catalog/books/:isbn', method: RequestMethod.DELETE },
                ShelfController,
              );
          }
        }
        """,
    "src/shelf/shelf.module.ts": """
        import { Module } from '@nestjs/common';
        import { ShelfController } from './shelf.controller';
        import { ShelfService } from './shelf.service';

        @Module({ controllers: [ShelfController], providers: [ShelfService] })
        export class ShelfModule {}
        """,
    "src/shelf/shelf.controller.ts": """
        import { Controller, Get, Delete, Param, UseGuards, UsePipes } from '@nestjs/common';
        import { ShelfService } from './shelf.service';
        import { StaffGuard } from '../common/staff.guard';
        import { TrimPipe } from '../common/trim.pipe';

        @UseGuards(StaffGuard)
        @Controller({ path: 'books', version: '2' })
        export class ShelfController {
          constructor(private readonly shelf: ShelfService) {}

          @Get(':isbn')
          async one(@Param('isbn') isbn: string) {
            return this.shelf.lookup(isbn);
          }

          @UsePipes(new TrimPipe())
          @Delete(':isbn')
          async drop(@Param('isbn') isbn: string) {
            await this.shelf.remove(isbn);
          }
        }
        """,
    "src/shelf/shelf.service.ts": """
        export class ShelfService {
          async lookup(isbn: string) {
            return { isbn };
          }

          async remove(isbn: string) {}
        }
        """,
    "src/health.controller.ts": """
        import { Controller, Get } from '@nestjs/common';

        @Controller('health')
        export class HealthController {
          @Get()
          ok() {
            return 'ok';
          }
        }
        """,
    "src/common/stamp.middleware.ts": "export class StampMiddleware {\n  use(req, res, next) { next(); }\n}\n",
    "src/common/staff.guard.ts": "export class StaffGuard {\n  canActivate() { return true; }\n}\n",
    "src/common/trim.pipe.ts": "export class TrimPipe {\n  transform(v) { return v; }\n}\n",
    "src/common/trace.interceptor.ts": "export class TraceInterceptor {\n  intercept(c, n) { return n.handle(); }\n}\n",
}


def test_routes_join_global_prefix_version_router_module_and_controller(tmp_path):
    f = extract(tmp_path, LIBRARY)
    routes = f.kind("route")
    assert set(routes) == {
        "GET /lib/v2/catalog/books/:isbn",
        "DELETE /lib/v2/catalog/books/:isbn",
        "GET /health",  # excluded from the global prefix
    }
    get = routes["GET /lib/v2/catalog/books/:isbn"]
    assert (get.file, get.line, get.attrs["controller"]) == (
        "src/shelf/shelf.controller.ts",
        11,
        "ShelfController",
    )
    to = {s: d for (s, d) in f.edges("ROUTES_TO")}
    handler = to["route:DELETE /lib/v2/catalog/books/:isbn"]
    assert handler == "symbol:src/shelf/shelf.controller.ts#ShelfController.drop"
    assert f.where(handler) == "src/shelf/shelf.controller.ts:18"


def test_chain_is_app_middleware_module_middleware_then_guards_interceptors_pipes(tmp_path):
    f = extract(tmp_path, LIBRARY)
    assert f.chain("DELETE /lib/v2/catalog/books/:isbn") == [
        (1, "helmet", "src/main.ts:11"),
        (2, "StampMiddleware", "src/root.module.ts:17"),
        (3, "StaffGuard", "src/shelf/shelf.controller.ts:6"),
        (4, "TraceInterceptor", "src/main.ts:12"),
        (5, "TrimPipe", "src/shelf/shelf.controller.ts:16"),
    ]
    # forRoutes(ShelfController) covers the GET too, at that argument's line
    assert f.chain("GET /lib/v2/catalog/books/:isbn")[1] == (
        2,
        "StampMiddleware",
        "src/root.module.ts:18",
    )
    assert f.chain("GET /health") == [
        (1, "helmet", "src/main.ts:11"),
        (2, "TraceInterceptor", "src/main.ts:12"),
    ]
    guard = f.node("middleware:src/common/staff.guard.ts#StaffGuard")
    assert guard.attrs["role"] == "guard" and guard.line == 1


def test_handlers_call_the_injected_service_methods(tmp_path):
    f = extract(tmp_path, LIBRARY)
    calls = {
        (s, d, e.line)
        for (s, d), e in f.edges("CALLS_FN").items()
        if s.startswith("symbol:src/shelf/shelf.controller.ts#ShelfController.")
    }
    assert calls == {
        (
            "symbol:src/shelf/shelf.controller.ts#ShelfController.one",
            "symbol:src/shelf/shelf.service.ts#ShelfService.lookup",
            13,
        ),
        (
            "symbol:src/shelf/shelf.controller.ts#ShelfController.drop",
            "symbol:src/shelf/shelf.service.ts#ShelfService.remove",
            19,
        ),
    }


def test_a_prefix_known_only_at_run_time_stays_a_placeholder_with_a_row(tmp_path):
    f = extract(tmp_path, {
        "src/main.ts": """
            import { NestFactory } from '@nestjs/core';
            import { AppModule } from './app.module';

            async function boot() {
              const app = await NestFactory.create(AppModule);
              app.setGlobalPrefix(process.env.API_PREFIX);
            }
            """,
        "src/app.module.ts": """
            import { Controller, Get, Module } from '@nestjs/common';

            @Controller('ping')
            export class PingController {
              @Get()
              pong() {}
            }

            @Module({ controllers: [PingController] })
            export class AppModule {}
            """,
    })  # fmt: skip
    assert set(f.kind("route")) == {"GET /{API_PREFIX}/ping"}
    (row,) = [u for u in f.unresolved if u.kind == "route_prefix"]
    assert (row.file, row.line, row.expr) == ("src/main.ts", 6, "process.env.API_PREFIX")


def test_typed_fields_and_inject_parameters_are_injected_members(tmp_path):
    f = extract(tmp_path, {
        "src/repo.ts": "export class Repo {\n  find(id: string) {}\n}\n",
        "src/mailer.ts": "export class Mailer {\n  send(to: string) {}\n}\n",
        "src/service.ts": """
            import { Inject } from '@nestjs/common';
            import { Repo } from './repo';
            import { Mailer } from './mailer';

            export class Accounts {
              private repo: Repo;

              constructor(@Inject('MAILER') private readonly mailer: Mailer) {}

              open(id: string) {
                this.repo.find(id);
                this.mailer.send(id);
              }
            }
            """,
    })  # fmt: skip
    calls = {
        (d, e.line)
        for (s, d), e in f.edges("CALLS_FN").items()
        if s == "symbol:src/service.ts#Accounts.open"
    }
    assert calls == {("symbol:src/repo.ts#Repo.find", 11), ("symbol:src/mailer.ts#Mailer.send", 12)}
