"""The benchmark folder: its manifest (repos.yaml), one truth file per repository, and the
normalisation every comparison uses (the benchmark's own rule, independent of the product's)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

ENDPOINTS = {
    "login": ("POST", "/api/users/login"),
    "register": ("POST", "/api/users"),
    "get_user": ("GET", "/api/user"),
    "update_user": ("PUT", "/api/user"),
    "get_profile": ("GET", "/api/profiles/{}"),
    "follow": ("POST", "/api/profiles/{}/follow"),
    "unfollow": ("DELETE", "/api/profiles/{}/follow"),
    "list_articles": ("GET", "/api/articles"),
    "feed": ("GET", "/api/articles/feed"),
    "get_article": ("GET", "/api/articles/{}"),
    "create_article": ("POST", "/api/articles"),
    "update_article": ("PUT", "/api/articles/{}"),
    "delete_article": ("DELETE", "/api/articles/{}"),
    "add_comment": ("POST", "/api/articles/{}/comments"),
    "get_comments": ("GET", "/api/articles/{}/comments"),
    "delete_comment": ("DELETE", "/api/articles/{}/comments/{}"),
    "favorite": ("POST", "/api/articles/{}/favorite"),
    "unfavorite": ("DELETE", "/api/articles/{}/favorite"),
    "tags": ("GET", "/api/tags"),
}
ROUTE_TOL, CALL_TOL = 3, 2  # lines a registration / a call site may be off by


def norm_path(path: str | None) -> str:
    """Params of every framework's spelling -> `{}`; anchors, optional slashes and a trailing
    slash dropped; repeated slashes collapsed."""
    p = (path or "").strip()
    p = re.sub(r"\(\?P<[^>]+>[^)]*\)", "{}", p)
    p = p.replace("^", "").replace("$", "").replace("/?", "")
    p = re.sub(r"\{[^}]*\}", "{}", p)
    p = re.sub(r"<[^>]*>", "{}", p)
    p = re.sub(r"\[\.{0,3}[^\]]*\]", "{}", p)
    p = re.sub(r":[A-Za-z_][A-Za-z0-9_]*", "{}", p)
    p = re.sub(r"/+", "/", p)
    if len(p) > 1:
        p = p.rstrip("/")
    return p or "/"


def sites_of(item: dict) -> list[dict]:
    """A truth route or call and each of its `alt` sites (a file of its own, or the item's)."""
    return [item] + [{"file": item["file"], **alt} for alt in item.get("alt") or []]


@dataclass
class Project:
    id: str
    web: dict  # the repos.yaml row of the frontend (slug, framework, ...)
    api: dict
    web_truth: dict  # truth/<slug>.yaml
    api_truth: dict


@dataclass
class Benchmark:
    folder: Path
    projects: list[Project]

    @property
    def repo_count(self) -> int:
        return 2 * len(self.projects)


def load_benchmark(folder: Path, half: str = "A") -> Benchmark:
    manifest = yaml.safe_load((folder / "repos.yaml").read_text(encoding="utf-8"))
    repos = {r["slug"]: r for r in manifest["repos"]}

    def truth(slug: str) -> dict:
        return yaml.safe_load((folder / "truth" / f"{slug}.yaml").read_text(encoding="utf-8"))

    projects = [
        Project(p["id"], repos[p["web"]], repos[p["api"]], truth(p["web"]), truth(p["api"]))
        for p in manifest["projects"]
        if p.get("half", half) == half
    ]
    return Benchmark(folder, projects)
