"""Partitions: one dynamic partition per component, keyed `project/component`."""

from __future__ import annotations

import dagster as dg

COMPONENTS = "components"

components_partitions = dg.DynamicPartitionsDefinition(name=COMPONENTS)
