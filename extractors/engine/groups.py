"""Registrations that belong to something other than the object they are called on:

- a *lexical group* (`Route.group(() => { Route.get('a', …) }).prefix('api')`, AdonisJS;
  any model operation whose hook makes a `GroupEvent`): a route, mount, use or nested group
  written inside the function passed and registered on the group's own parent belongs to
  the group, which is mounted on that parent — so the group's prefix and middleware (set
  by chained calls after it) reach exactly the routes written inside it;
- a *route handle* (`Route.get('user', h).middleware(['auth'])`): a use whose target is the
  object a route registration returned (its origin is that registration's call) is that
  route's own middleware, after what the route was registered with.
"""

from __future__ import annotations

from dataclasses import replace

from extractors.engine.events import GroupEvent, MountEvent, PrefixEvent, RouteEvent, UseEvent
from extractors.engine.mounts import key_of
from extractors.engine.recognize import Found
from extractors.engine.values import Obj, Site

FIELD = {RouteEvent: "router", MountEvent: "parent", UseEvent: "target", PrefixEvent: "target",
         GroupEvent: "parent"}  # fmt: skip


def regroup(found: list[Found]) -> list[Found]:
    groups = [f.event for f in found if isinstance(f.event, GroupEvent)]
    out = found
    if groups:
        groups.sort(key=lambda g: g.fn.end - g.fn.start)  # innermost first
        out = []
        for item in found:
            event = item.event
            name = FIELD.get(type(event))
            if name is not None:
                owner = _owner(groups, event, getattr(event, name))
                if owner is not None:
                    event = replace(event, **{name: owner.group})
            out.append(replace(item, event=event) if event is not item.event else item)
            if isinstance(event, GroupEvent):  # the group hangs off its (regrouped) parent
                out.append(Found(MountEvent(event.model, event.parent, event.group, None, (),
                                            event.site)))  # fmt: skip
    return _route_handles(out)


def _owner(groups: list[GroupEvent], event, target) -> GroupEvent | None:
    key = key_of(target)
    if key is None:
        return None
    site = event.site
    for group in groups:
        if group is event or not _inside(site, group.fn) or key_of(group.parent) != key:
            continue
        return group
    return None


def _inside(site: Site, span: Site) -> bool:
    return site.rel == span.rel and span.start <= site.start and site.end <= span.end


def _route_handles(found: list[Found]) -> list[Found]:
    """Uses aimed at the object a route registration returned become that route's own."""
    routes: dict[tuple, list[int]] = {}
    for i, item in enumerate(found):
        if isinstance(item.event, RouteEvent):
            s = item.event.site
            routes.setdefault((s.rel, s.start, s.end), []).append(i)
    if not routes:
        return found
    extra: dict[int, list] = {}
    dropped: set[int] = set()
    for i, item in enumerate(found):
        event = item.event
        if not isinstance(event, UseEvent) or not isinstance(event.target, Obj):
            continue
        o = event.target.origin
        hits = routes.get((o.rel, o.start, o.end))
        if not hits:
            continue
        dropped.add(i)
        for j in hits:
            extra.setdefault(j, []).extend(event.middleware)
    if not dropped:
        return found
    out = []
    for i, item in enumerate(found):
        if i in dropped:
            continue
        if i in extra:
            event = item.event
            item = replace(
                item, event=replace(event, middleware=event.middleware + tuple(extra[i]))
            )
        out.append(item)
    return out
