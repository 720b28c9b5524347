"""Django + DRF on a small shop written for this test: URLconfs included across apps from
ROOT_URLCONF, router-generated viewset routes with inherited actions and @action extras,
settings MIDDLEWARE and DRF guards as the chain, function and class views."""

from __future__ import annotations

from pyrepo import Graph, at, write

FILES = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'shop.settings')\n",
    "shop/__init__.py": "",
    "shop/settings.py": """
        ROOT_URLCONF = "shop.urls"

        MIDDLEWARE = [
            "shop.health.LivenessMiddleware",
            "django.middleware.security.SecurityMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
        ]

        REST_FRAMEWORK = {
            "DEFAULT_AUTHENTICATION_CLASSES": [
                "rest_framework.authentication.TokenAuthentication",
            ],
            "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
        }
        """,
    "shop/health.py": """
        from django.http import HttpResponse


        class LivenessMiddleware:
            def __init__(self, get_response):
                self.get_response = get_response

            def __call__(self, request):
                if request.method == "GET":
                    if request.path == "/livez":
                        return self.alive(request)
                return self.get_response(request)

            def alive(self, request):
                return HttpResponse("ok")
        """,
    "shop/urls.py": """
        from django.contrib import admin
        from django.urls import include, path

        from shop.views import home

        urlpatterns = [
            path("", home),
            path("v2/", include("orders.urls")),
            path("admin/", admin.site.urls),
        ]
        """,
    "shop/views.py": """
        def home(request):
            return None
        """,
    "orders/__init__.py": "",
    "orders/urls.py": """
        from django.urls import include, path
        from rest_framework.routers import DefaultRouter

        from orders import views

        router = DefaultRouter()
        router.register(r"orders", views.OrderViewSet, basename="order")
        router.register("notes", views.NoteViewSet)

        urlpatterns = [
            path("", include(router.urls)),
            path("export/<int:year>", views.export),
            path("stats/", views.StatsView.as_view()),
        ]
        """,
    "orders/views.py": """
        from django.contrib.auth.decorators import login_required
        from django.views.decorators.http import require_POST
        from rest_framework import mixins, viewsets
        from rest_framework.decorators import action
        from rest_framework.permissions import IsAdminUser
        from rest_framework.views import APIView


        class OrderViewSet(viewsets.ModelViewSet):
            permission_classes = [IsAdminUser]
            lookup_field = "code"

            def list(self, request):
                return []

            @action(detail=True, methods=["post"], url_path="cancel-now")
            def cancel(self, request, code=None):
                return None


        class NoteViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
            pass


        @login_required
        @require_POST
        def export(request, year):
            return None


        class StatsView(APIView):
            def get(self, request):
                return {}
        """,
}
DETAIL = "/v2/orders/<code>/"


def test_urlconf_tree_and_router_routes(tmp_path):
    g = Graph(write(tmp_path, FILES))
    assert g.routes() == sorted(
        [
            "GET /",
            "GET /livez",
            "GET /v2/",
            "GET /v2/orders/",
            "POST /v2/orders/",
            *(f"{m} {DETAIL}" for m in ("GET", "PUT", "PATCH", "DELETE")),
            "POST /v2/orders/<code>/cancel-now/",
            "GET /v2/notes/",
            "POST /v2/export/<int:year>",
            "GET /v2/stats/",
        ]
    )
    views, urls = "orders/views.py", "orders/urls.py"
    assert g.route_at("GET /v2/orders/") == at(FILES, urls, 'register(r"orders"')
    assert g.handler("GET /v2/orders/") == "OrderViewSet.list@" + at(FILES, views, "def list(")
    # an inherited action runs in DRF's code: the handler is the viewset class
    assert g.handler(f"DELETE {DETAIL}") == "OrderViewSet@" + at(FILES, views, "class OrderViewSet")
    assert g.route_at("POST /v2/orders/<code>/cancel-now/") == at(FILES, views, "@action(")
    assert g.handler("GET /v2/stats/") == "StatsView.get@" + at(FILES, views, "def get(")
    assert g.handler("GET /livez") == "LivenessMiddleware.alive@" + at(
        FILES, "shop/health.py", "def alive("
    )
    [admin] = [u for u in g.unresolved if "admin" in u.expr]
    assert f"{admin.file}:{admin.line}" == at(FILES, "shop/urls.py", "admin.site.urls")


def test_chain_settings_middleware_then_drf_guards_or_view_decorators(tmp_path):
    g = Graph(write(tmp_path, FILES))
    settings, views = "shop/settings.py", "orders/views.py"
    middleware = [
        "LivenessMiddleware@" + at(FILES, settings, "LivenessMiddleware"),
        "SecurityMiddleware@" + at(FILES, settings, "SecurityMiddleware"),
        "AuthenticationMiddleware@" + at(FILES, settings, "AuthenticationMiddleware"),
    ]
    token = "TokenAuthentication@" + at(FILES, settings, "TokenAuthentication")
    assert g.chain(f"PUT {DETAIL}") == [
        *middleware,
        token,
        "IsAdminUser@" + at(FILES, views, "permission_classes = [IsAdminUser]"),
    ]
    assert g.chain("GET /v2/notes/") == [
        *middleware,
        token,
        "IsAuthenticated@" + at(FILES, settings, "IsAuthenticated"),
    ]
    assert g.chain("POST /v2/export/<int:year>") == [
        *middleware,
        "login_required@" + at(FILES, views, "@login_required"),
        "require_POST@" + at(FILES, views, "@require_POST"),
    ]
    assert g.chain("GET /") == middleware
