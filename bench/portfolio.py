"""The scale portfolio for the benchmarks: real packages fetched by name at bench time.

`npm pack express@4 @nestjs/core next@14 vue@3 axios` and `pip download --no-deps
--no-binary :all: flask fastapi`, unpacked under bench/work/ (git-ignored). Each
package is a component, and each top-level folder of the larger ones is its own
component (~50 in all), under a generated KB with one project per package.
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from pathlib import Path

WORK = Path(__file__).resolve().parent / "work"
NPM = ["express@4", "@nestjs/core", "next@14", "vue@3", "axios"]
PYPI = ["flask", "fastapi"]
SPLIT_BYTES = 500_000  # a package bigger than this is split by top-level folder (~46 components)
SOURCE_SUFFIXES = {".js", ".mjs", ".cjs", ".ts", ".tsx", ".py", ".vue", ".tf"}


def fetch(work: Path = WORK) -> Path:
    """Download and unpack the packages once; returns the folder of unpacked packages."""
    downloads, unpacked = work / "downloads", work / "packages"
    if unpacked.is_dir() and any(unpacked.iterdir()):
        return unpacked
    downloads.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["npm", "pack", *NPM, "--silent"], cwd=downloads, check=True, capture_output=True
    )
    subprocess.run(
        [
            shutil.which("pip") or shutil.which("pip3") or "pip",
            "download",
            "--no-deps",
            "--no-binary",
            ":all:",
            *PYPI,
            "-d",
            str(downloads),
            "-q",
        ],
        check=True,
        capture_output=True,
    )
    for archive in sorted(downloads.iterdir()):
        name = archive.name.removesuffix(".tgz").removesuffix(".tar.gz")
        target = unpacked / name.rsplit("-", 1)[0]
        with tarfile.open(archive) as tar:
            tar.extractall(target, filter="data")
        inner = [p for p in target.iterdir() if p.is_dir()]
        if len(inner) == 1:  # npm's package/ or sdist's name-version/
            for child in inner[0].iterdir():
                shutil.move(str(child), target / child.name)
            inner[0].rmdir()
    return unpacked


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _has_source(folder: Path) -> bool:
    return any(p.suffix in SOURCE_SUFFIXES for p in folder.rglob("*") if p.is_file())


def components_of(package: Path) -> list[tuple[str, Path]]:
    """(component id, folder) pairs: the package, or its top-level folders when large."""
    if _size(package) <= SPLIT_BYTES:
        return [(package.name, package)]
    roots = (
        [package / "dist"]
        if (package / "dist").is_dir() and _size(package / "dist") > SPLIT_BYTES
        else [package]
    )
    out = []
    for root in roots:
        for child in sorted(p for p in root.iterdir() if p.is_dir() and _has_source(p)):
            out.append(
                (f"{package.name}-{child.name}".lower().replace("_", "-").replace(".", "-"), child)
            )
    return out or [(package.name, package)]


def write_portfolio(dest: Path, packages: Path) -> Path:
    """A KB + repos tree under dest (one git repo); returns the KB root."""
    if dest.exists():
        shutil.rmtree(dest)
    repos, kb = dest / "repos", dest / "kb"
    shutil.copytree(packages, repos, symlinks=True)
    (kb / "projects").mkdir(parents=True)
    root = Path(__file__).resolve().parents[1] / "examples" / "kb"
    shutil.copy(root / "vocabulary.yaml", kb / "vocabulary.yaml")
    (kb / "kb.yaml").write_text("name: bench-portfolio\nrepos_root: ../repos\ntoken_budget: 2000\n")
    count = 0
    for package in sorted(repos.iterdir()):
        project = package.name.lower().replace("_", "-")
        (kb / "projects" / project).mkdir()
        (kb / "projects" / project / "project.md").write_text(
            f"---\nkind: project\nid: {project}\ntitle: {package.name}\n---\n# {package.name}\n"
        )
        for comp, folder in components_of(package):
            doc = kb / "projects" / project / comp / "component.md"
            doc.parent.mkdir()
            repo = folder.relative_to(repos).as_posix()
            doc.write_text(
                f"---\nkind: component\nproject: {project}\nid: {comp}\ntitle: {comp}\n"
                f"role: library\nrepo: {repo}\n---\n# {comp}\n"
            )
            count += 1
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "-A"],
        ["commit", "-q", "-m", "bench portfolio"],
    ):
        subprocess.run(
            [
                "git",
                "-C",
                str(dest),
                "-c",
                "user.name=bench",
                "-c",
                "user.email=b@example.invalid",
                *args,
            ],
            check=True,
            capture_output=True,
        )
    print(
        f"portfolio: {count} components in {len(list((kb / 'projects').iterdir()))} projects at {dest}"
    )
    return kb
