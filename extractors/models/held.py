"""The objects a library holds itself and what every instance shares: the one object a
module, a global, a member name or a declared type stands for (its props read off the
component's files), configuration read off per-build files (`file:` makers), members
assigned to a store every component instance has (`stores:`), and the vocabulary of
names the models know. Mixed into `Library`."""

from __future__ import annotations

import fnmatch
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

from extractors.engine.values import Config, Lit, Obj, ObjLit, Site, Value
from extractors.models.schema import Maker, Model
from extractors.models.sources import CallSource, FileSource

if TYPE_CHECKING:
    from extractors.engine.evaluate import Evaluator


def model_site(model: str, role: str) -> Site:
    """The identity of an object a library holds itself (the default axios instance)."""
    return Site(f"<{model}>", 0, 0, 0, 0, 0)


class Vocabulary(set):
    """The method and maker names the models know; a name matching a pattern an operation
    names (`use*Query`) is known too."""

    def __contains__(self, name: object) -> bool:
        if set.__contains__(self, name):
            return True
        return isinstance(name, str) and any(fnmatch.fnmatchcase(name, w) for w in self._patterns())

    def _patterns(self) -> list[str]:
        cached = self.__dict__.get("_cached")
        if cached is None or cached[0] != len(self):
            cached = self.__dict__["_cached"] = (
                len(self),
                [w for w in set.__iter__(self) if "*" in w],
            )
        return cached[1]


def _in_files(maker: Maker, rel: str) -> bool:
    """A maker limited to some files (`+page.js`: SvelteKit's load functions) applies there."""
    if not maker.files:
        return True
    name = rel.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatch(name, pattern) for pattern in maker.files)


@dataclass
class Claim:
    model: Model
    role: str
    maker: Maker


class HeldObjects:
    """Library's half for objects it holds itself (needs `models`, `_held`, `by_file`,
    `by_call`, `by_value`, `by_type`, `by_subclass`)."""

    def attach(self, ev: Evaluator) -> None:
        """The evaluator the objects a library holds itself read their props with (held
        weakly: the evaluator holds the library, and no cycle keeps the pair alive)."""
        self._ev = weakref.ref(ev)
        self._held.clear()

    def held(self, claim: Claim) -> Obj:
        """The one object a library holds itself (the default axios instance, the `$axios`
        a framework injects, the HttpClient of a type), its props read by its maker's
        selectors off the component's files (`file(nuxt.config).axios.baseURL`)."""
        key = (claim.model.id, claim.role, claim.maker.how, claim.maker.target)
        found = self._held.get(key)
        if found is None:
            origin = model_site(claim.model.id, claim.role)
            found = self._held[key] = Obj(claim.model.id, claim.role, origin)  # while reading
            ev = self._ev() if getattr(self, "_ev", None) is not None else None
            if claim.maker.props and ev is not None:
                src = FileSource(ev)
                props = tuple((k, v) for k, sel in claim.maker.props.items()
                              if (v := src.select(sel)) is not None)  # fmt: skip
                found = self._held[key] = Obj(claim.model.id, claim.role, origin, props)
        return found

    def file_claim(self, ev: Evaluator, obj: ObjLit) -> tuple[Claim, str] | None:
        """The file maker an exported object literal answers (`environments/environment*.ts`:
        its `environment`), with the name it is exported as."""
        for claim in self.by_file:
            if not fnmatch.fnmatch(obj.site.rel, claim.maker.target):
                continue
            a = ev.program.adapter(obj.site.rel)
            node = a.node_at(obj.site) if a is not None else None
            holder = node.parent if node is not None else None
            name = holder.child_by_field_name("name") if holder is not None else None
            if holder is not None and holder.type == "variable_declarator" and name is not None:
                return claim, a.text(name)
        return None

    def file_member(self, ev: Evaluator, obj: ObjLit, name: str) -> Value | None:
        """A configuration value read off such a literal (`reads: config`): a `Config` named
        `<export>.<member>` whose default is this file's value; nested objects stay objects."""
        found = self.file_claim(ev, obj)
        if found is None:
            return None
        claim, export = found
        if claim.model.reads.get(claim.role) != "config":
            return None
        value = ev.object_member(obj, name, 1)
        if not isinstance(value, (Lit, Config)) or value == Lit(None):
            return None
        return Config(f"{export}.{name}", claim.model.id, value)

    @property
    def stores(self) -> set[tuple[str, str]]:
        found = getattr(self, "_stores", None)
        if found is None:
            found = self._stores = {(m.id, role) for m in self.models for role in m.stores}
        return found

    def shared_members(self, ev: Evaluator) -> dict[str, Value]:
        """Members every component instance has: what is assigned to a store a model names
        (`Vue.prototype.$http = axios`, `app.config.globalProperties.$api = api`) and what
        an installed plugin's `globals` put there (`app.use(VueAxios, axios)`)."""
        found = getattr(self, "_shared", None)
        if found is not None:
            return found
        if getattr(ev, "_building", False):
            return {}
        if ev._assigned is None:
            ev._build_assigned()
        stores, table = self.stores, {}
        self._shared = table  # while reading: nothing shared yet
        for target, name in list(ev._assigned or {}):
            if isinstance(target, Obj) and (target.model, target.role) in stores:
                value = ev.assigned(target, name, 1)
                if value is not None:
                    table[name] = value
        from extractors.models.plugins import installed_globals

        table.update(installed_globals(ev, self, CallSource))
        return table

    def _names_maker(self, dotted: str) -> bool:
        return any(dotted in table for table in (self.by_call, self.by_value, self.by_type,
                                                 self.by_subclass))  # fmt: skip
