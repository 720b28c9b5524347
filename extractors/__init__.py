"""Code layer: tree-sitter extractors, each a pure function component files -> facts.

Public entry points: `extract_component` and `extractors_code_version` (registry.py).
"""

from extractors.registry import extract_component, extractors_code_version

__all__ = ["extract_component", "extractors_code_version"]
