"""Container manifests and build configs: Kubernetes workloads and Knative / Cloud Run
service YAML (container images and ports as settings, container `env` as env declarations,
`secretKeyRef`s as settings), Cloud Build files (`substitutions`, pushed `images`)
(see `infra.deploy`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import yaml

from extractors.infra.locate import line_of, named_items, ymap, yscalar, yseq
from extractors.source import SourceFile
from vocab import safe_yaml

if TYPE_CHECKING:
    from extractors.infra.emit import Emitter

_CLOUDBUILD = re.compile(r"cloudbuild[\w.-]*\.ya?ml$")
_LOCKS = ("pnpm-lock.yaml", "yarn.lock")
# where the pod spec sits in each workload kind
_POD_SPEC = {
    "Pod": ("spec",),
    "CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
}
_WORKLOADS = {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "Service"}
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read(emit: Emitter, sf: SourceFile, base: str) -> bool:
    if not base.endswith((".yaml", ".yml")) or base in _LOCKS:
        return False
    if _CLOUDBUILD.search(base):
        for root in _documents(emit, sf):
            _cloudbuild(emit, sf, ymap(root))
        return True
    if "apiVersion:" not in sf.text or "kind:" not in sf.text:
        return False
    for root in _documents(emit, sf):
        _workload(emit, sf, ymap(root))
    return True


def _documents(emit: Emitter, sf: SourceFile) -> list[yaml.Node]:
    try:
        safe_yaml.check_bounds(sf.text)
        return [doc for doc in yaml.compose_all(sf.text, Loader=_Loader) if doc is not None]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        emit.ctx.problem("warning", sf.rel, mark.line + 1 if mark else None, "deploy-yaml",
                         f"{sf.rel}: YAML unreadable, its settings are not read — fix the YAML")  # fmt: skip
        return []


def _dig(top: dict[str, tuple], *keys: str) -> yaml.Node | None:
    node = None
    for key in keys:
        pair = top.get(key)
        if pair is None:
            return None
        node = pair[1]
        top = ymap(node)
    return node


def _workload(emit: Emitter, sf: SourceFile, top: dict[str, tuple]) -> None:
    kind = yscalar(_dig(top, "kind")) or ""
    api = yscalar(_dig(top, "apiVersion")) or ""
    if kind == "Service" and not api.startswith("serving.knative.dev"):
        return  # a Kubernetes Service routes traffic; it runs no container
    if kind not in _WORKLOADS and kind not in _POD_SPEC:
        return
    spec = _dig(top, *_POD_SPEC.get(kind, ("spec", "template", "spec")))
    name = yscalar(_dig(top, "metadata", "name")) or kind
    label = f"{'Cloud Run / Knative service' if kind == 'Service' else kind} {name}"
    source = "knative" if kind == "Service" else "kubernetes"
    for group in ("initContainers", "containers"):
        for i, item in enumerate(yseq(ymap(spec).get(group, (None, None))[1])):
            _container(emit, sf, ymap(item), f"{name}.{group}[{i}]", label, source)


def _container(
    emit: Emitter, sf: SourceFile, box: dict[str, tuple], path: str, label: str, source: str
) -> None:
    cname = yscalar(box.get("name", (None, None))[1])
    where = f"{label}" + (f", container {cname}" if cname else "")
    if "image" in box:
        emit.setting(sf, line_of(box["image"][0]), f"{path}.image", yscalar(box["image"][1]),
                     f"container image ({where})", source, "yaml")  # fmt: skip
    for port in yseq(box.get("ports", (None, None))[1]):
        number = ymap(port).get("containerPort")
        if number is not None:
            emit.setting(sf, line_of(number[0]), f"{path}.containerPort", yscalar(number[1]),
                         f"container port ({where})", source, "yaml")  # fmt: skip
    for env, key, entry in named_items(box.get("env", (None, None))[1], "name"):
        value = yscalar(entry.get("value", (None, None))[1])
        emit.env(sf, line_of(key), env, value, source, "yaml")
        ref = ymap(_dig(entry, "valueFrom", "secretKeyRef"))
        secret = yscalar(ref.get("name", (None, None))[1])
        if secret:
            key = yscalar(ref.get("key", (None, None))[1])
            emit.setting(sf, line_of(ref["name"][0]), f"env.{env}.secretKeyRef",
                         f"{secret}" + (f" (key {key})" if key else ""),
                         f"secret reference ({where})", source, "yaml",
                         refers_to=env, secret=secret)  # fmt: skip


def _cloudbuild(emit: Emitter, sf: SourceFile, top: dict[str, tuple]) -> None:
    for name, (key, value) in ymap(_dig(top, "substitutions")).items():
        emit.setting(sf, line_of(key), f"substitutions.{name}", yscalar(value),
                     "Cloud Build substitution", "cloudbuild", "yaml")  # fmt: skip
    for item in yseq(_dig(top, "images")):
        emit.setting(sf, line_of(item), "images", yscalar(item), "image pushed by Cloud Build",
                     "cloudbuild", "yaml")  # fmt: skip
