"""What a library says of the component's classes and of names it fills itself, for the
`Library` (runtime.py): the class attributes an ORM base gives (`Article.query`), the
attribute a relationship's backref adds (`User.profile`), the class a base object derives
from (`db.Model` built from `model_class`), a global standing for a registered loader's
result (`current_user`) and a test's parameter a fixture fills (pytest)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.values import Ext, Klass, Obj, Value
from extractors.models.injected import FixtureIndex, fixture_index, fixture_value
from extractors.models.proxies import registered_result
from extractors.models.relations import backref, backref_index

if TYPE_CHECKING:
    from extractors.engine.evaluate import Evaluator


class ClassFacts:
    """`Library`'s answers about classes, globals and test parameters; the tables are the
    Library's fields (`class_bases`, `proxies`, `backrefs`, `fixtures`)."""

    models: list
    by_id: dict
    class_bases: dict
    proxies: dict
    proxy_names: set[str]
    proxied: dict
    backrefs: dict | None
    fixtures: FixtureIndex | None

    def proxy(self, ev: Evaluator, value: Ext) -> Value | None:
        """What a library global standing for a registered function's result is (a user
        loader's user for `current_user`), or None when it stands for nothing known."""
        if not value.path or value.path[-1] not in self.proxy_names:
            return None  # asked of every member read of a package value: the cheap test first
        key = value.dotted
        loaders = self.proxies.get(key)
        if loaders is None:
            return None
        if key not in self.proxied:
            self.proxied[key] = None  # a loader reading the proxy itself: nothing known
            self.proxied[key] = registered_result(ev, loaders)
        return self.proxied[key]

    def fixture(self, ev: Evaluator, rel: str, b) -> Value | None:
        """A test function's parameter a test framework fills by name (a pytest fixture)."""
        if self.fixtures is None:
            self.fixtures = FixtureIndex()  # a fixture read while the index is built: none yet
            self.fixtures = fixture_index(ev, [m.fixtures for m in self.models if m.fixtures])
        if b.name not in self.fixtures.by_name:
            return None
        return fixture_value(ev, self.fixtures, rel, b)

    def class_member(self, ev: Evaluator, base: Value, klass: Klass, name: str) -> Obj | None:
        """A class attribute a library base class gives the classes derived from it (an
        ORM's `Article.query`, `Product.objects`: an object whose `model` prop is `klass`,
        the class it was read on), or one another class's relationship gives it through a
        backref (`User.profile`)."""
        if isinstance(base, Ext):
            key: object = base.dotted
        elif isinstance(base, Obj):
            key = (base.model, base.role)
        else:
            return None
        for model, attrs in self.class_bases.get(key, ()):
            if name in attrs:
                return Obj(model.id, attrs[name], klass.site, (("model", klass),))
        if key in self.class_bases:
            if self.backrefs is None:
                self.backrefs = {}  # a backref read while the index is built: none yet
                self.backrefs = backref_index(ev, [m for m in self.models if m.backrefs])
            return backref(self.backrefs, klass, name)
        return None

    def derived_from(self, base: Obj) -> Value | None:
        """The class an object used as a base class derives from (`class Plant(db.Model)`
        with `db = SQLAlchemy(model_class=Crud)`: `Crud`), a model's `base_classes`."""
        model = self.by_id.get(base.model)
        prop = model.base_classes.get(base.role) if model is not None else None
        return base.prop(prop) if prop else None
