; One walk per JS-family file: what the engine's adapter indexes (lang/js.py dispatches on
; the pattern's position, so keep the order).
(call_expression) @call
(new_expression) @call
(variable_declarator) @decl
(function_declaration) @fn
(generator_function_declaration) @fn
(class_declaration) @cls
(formal_parameters) @params
(arrow_function parameter: (identifier) @aparam)
(for_in_statement) @loop
(catch_clause) @catch
(assignment_expression left: (identifier) @aname right: (_) @avalue)
(assignment_expression left: (member_expression) @mleft right: (_) @mright)
(decorator) @dec
[(arrow_function) (function_expression)] @lambda
(ERROR) @error
(member_expression) @read
(subscript_expression) @read
(object_pattern) @read
