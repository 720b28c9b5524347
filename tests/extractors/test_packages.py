"""Package manifests → catalog rows, with versions resolved from each kind of lock file."""

from __future__ import annotations

import json

from test_python import facts_of, write


def rows(facts) -> dict[tuple[str, str], tuple]:
    return {
        (r.file, r.name): (r.line, r.attrs["declared"], r.attrs["version"], r.attrs["dev"])
        for r in facts.catalog
        if r.table == "packages"
    }


PACKAGE_JSON = """
    {
      "name": "web",
      "dependencies": {
        "next": "^14.2.0",
        "express": "~4.19.0"
      },
      "devDependencies": {
        "typescript": "^5.4.0"
      }
    }
    """


def test_npm_versions_from_package_lock_v3(tmp_path):
    lock = {
        "lockfileVersion": 3,
        "packages": {
            "": {"name": "web"},
            "node_modules/next": {"version": "14.2.15"},
            "node_modules/express": {"version": "4.19.2"},
            "node_modules/typescript": {"version": "5.6.3", "dev": True},
            "node_modules/foo/node_modules/express": {"version": "3.0.0"},
        },
    }
    root = write(tmp_path, {"package.json": PACKAGE_JSON, "package-lock.json": json.dumps(lock)})
    facts, nodes, _ = facts_of(root, component="web")
    assert rows(facts) == {
        ("package.json", "next"): (4, "^14.2.0", "14.2.15", False),
        ("package.json", "express"): (5, "~4.19.0", "4.19.2", False),
        ("package.json", "typescript"): (8, "^5.4.0", "5.6.3", True),
    }
    assert nodes["package.json"].attrs["stack"] == ["express", "nextjs", "typescript"]
    assert next(r for r in facts.catalog if r.name == "next").attrs["ecosystem"] == "npm"


def test_npm_versions_from_yarn_lock_and_pnpm_lock(tmp_path):
    yarn = (
        '# yarn lockfile v1\n\n"express@~4.19.0", express@^4.0.0:\n  version "4.19.2"\n'
        '  resolved "https://x"\n\nnext@^14.2.0:\n  version "14.2.3"\n'
    )
    write(tmp_path / "a", {"package.json": PACKAGE_JSON, "yarn.lock": yarn})
    pnpm = (
        "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      next:\n"
        "        specifier: ^14.2.0\n        version: 14.2.10(react@18.3.1)\n"
        "    devDependencies:\n      typescript:\n        specifier: ^5.4.0\n        version: 5.5.4\n"
    )
    write(tmp_path / "b", {"package.json": PACKAGE_JSON, "pnpm-lock.yaml": pnpm})
    got = rows(facts_of(tmp_path, component="mono")[0])
    assert got[("a/package.json", "express")][2] == "4.19.2"
    assert got[("a/package.json", "next")][2] == "14.2.3"
    assert got[("a/package.json", "typescript")][2] is None  # not in the lock
    assert got[("b/package.json", "next")][2] == "14.2.10"
    assert got[("b/package.json", "typescript")][2] == "5.5.4"


def test_python_manifests_and_locks(tmp_path):
    write(tmp_path / "svc", {
        "requirements.txt": "# deps\nFastAPI>=0.110\nuvicorn[standard]==0.32.1 ; python_version>'3.8'\n-r base.txt\n",
        "requirements-dev.txt": "pytest==8.3.3\n",
        "uv.lock": '[[package]]\nname = "fastapi"\nversion = "0.115.5"\n',
    })  # fmt: skip
    write(tmp_path / "lib", {
        "pyproject.toml": """
            [project]
            name = "lib"
            dependencies = [
                "httpx>=0.27",
                "Flask_Cors~=4.0",
            ]

            [project.optional-dependencies]
            test = ["pytest>=8"]

            [tool.poetry.dependencies]
            python = "^3.11"
            requests = {version = "^2.32"}
            """,
        "poetry.lock": '[[package]]\nname = "httpx"\nversion = "0.27.2"\n\n[[package]]\nname = "requests"\nversion = "2.32.3"\n',
    })  # fmt: skip
    write(
        tmp_path / "old",
        {"Pipfile": '[packages]\nflask = "*"\n\n[dev-packages]\nblack = "==24.1.0"\n'},
    )
    got = rows(facts_of(tmp_path, component="py")[0])
    assert got[("svc/requirements.txt", "fastapi")] == (2, ">=0.110", "0.115.5", False)
    assert got[("svc/requirements.txt", "uvicorn")] == (3, "==0.32.1", "0.32.1", False)
    assert got[("svc/requirements-dev.txt", "pytest")] == (1, "==8.3.3", "8.3.3", True)
    assert got[("lib/pyproject.toml", "httpx")] == (4, ">=0.27", "0.27.2", False)
    assert got[("lib/pyproject.toml", "flask-cors")][:2] == (5, "~=4.0")
    assert got[("lib/pyproject.toml", "pytest")][3] is True
    assert got[("lib/pyproject.toml", "requests")] == (13, "^2.32", "2.32.3", False)
    assert ("lib/pyproject.toml", "python") not in got
    assert got[("old/Pipfile", "flask")] == (2, "*", None, False)
    assert got[("old/Pipfile", "black")] == (5, "==24.1.0", "24.1.0", True)


def test_broken_manifest_is_a_problem_not_a_crash(tmp_path):
    facts = facts_of(write(tmp_path, {"package.json": "{ not json"}), component="web")[0]
    assert [p.rule for p in facts.problems] == ["manifest"]
    assert not facts.catalog


def test_requirement_files_in_a_requirements_folder_and_their_includes(tmp_path):
    root = write(
        tmp_path,
        {
            "requirements.txt": "# the platform wants a root file\n-r requirements/live.txt\n",
            "requirements/live.txt": "# production\n\nDjango==5.0.6\nDjango-Ninja\n",
            "requirements/dev.txt": "-r live.txt\n--requirement=../tools/pins.txt\npytest\n",
            "tools/pins.txt": "black==24.4.2\n",
            "notes/todo.txt": "Django is not a package row here\n",
            "ci-requirements.txt": "tox\n",
            "requirements.in": "httpx\n",
        },
    )
    facts, _, _ = facts_of(root, component="api")
    got = rows(facts)
    assert got[("requirements/live.txt", "django")] == (3, "==5.0.6", "5.0.6", False)
    assert got[("requirements/live.txt", "django-ninja")] == (4, "", None, False)
    assert got[("requirements/dev.txt", "pytest")] == (3, "", None, True)
    assert got[("tools/pins.txt", "black")] == (1, "==24.4.2", "24.4.2", False)
    assert got[("ci-requirements.txt", "tox")] == (1, "", None, False)
    assert got[("requirements.in", "httpx")] == (1, "", None, False)
    assert not any(file == "notes/todo.txt" for file, _ in got)
