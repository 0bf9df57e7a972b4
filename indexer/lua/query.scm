; The one query of the Lua extractor. Every pattern has a main capture
; named after the item kind and, optionally, role captures "<kind>.<role>".
; extract.go reads the items in document order; the rest is done in Go over
; byte ranges.

(comment) @doc

; Scopes: a local is visible from its declaration to the end of its block.
(block) @scope

; Declarations and bindings.
(function_declaration name: (_) @func.name parameters: (parameters) @func.params body: (block)? @func.body) @func
(function_definition parameters: (parameters) @lambda.params) @lambda
(variable_declaration (assignment_statement (variable_list) @vars.names (expression_list) @vars.values)) @vars
(variable_declaration (variable_list) @vars.names) @vars
(assignment_statement (variable_list) @assign.names (expression_list) @assign.values) @assign
(parameters name: (identifier) @param)
(for_numeric_clause name: (identifier) @forvar)
(for_generic_clause (variable_list (identifier) @forvar))
(chunk (return_statement (expression_list . (identifier) @ret)))

; References.
(function_call name: (_) @call.name arguments: (_) @call.args) @call

; Regions.
[(for_statement) (while_statement) (repeat_statement)] @loop
(if_statement consequence: (_) @cond)
(elseif_statement) @cond
(else_statement) @cond
(binary_expression operator: ["and" "or"] right: (_) @cond)
