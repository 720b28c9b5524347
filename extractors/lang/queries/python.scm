; One walk per Python file: what the engine's adapter indexes (lang/python.py dispatches on
; the pattern's position, so keep the order).
(call) @call
(decorator) @dec
(assignment left: (_) @left) @assign
(augmented_assignment left: (identifier) @left) @aug
[(function_definition) (lambda)] @fn
(class_definition) @cls
(for_statement) @loop
(for_in_clause) @comp
(named_expression name: (identifier) @left value: (_) @value) @walrus
(import_from_statement) @import
(import_statement) @import
(with_item value: (as_pattern alias: (as_pattern_target (identifier) @left))) @with
[(attribute) (subscript)] @read
