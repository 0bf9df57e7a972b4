; The one query of the Ruby extractor. Every pattern has a main capture
; named after the item kind and, optionally, role captures "<kind>.<role>".
; extract.go reads the items in document order; the rest is done in Go over
; byte ranges.

(comment) @doc

; Declarations.
(module name: (_) @module.name body: (_)? @module.body) @module
(class name: (_) @class.name superclass: (superclass (_) @class.super)? body: (_)? @class.body) @class
(singleton_class value: (_) @sclass.object body: (_)? @sclass.body) @sclass
(method name: (_) @method.name parameters: (_)? @method.params body: (_)? @method.body) @method
(singleton_method object: (_) @smethod.object name: (_) @smethod.name parameters: (_)? @smethod.params body: (_)? @smethod.body) @smethod
(assignment left: (constant) @const.name) @const

; Bindings: parameters and locals.
(method_parameters (identifier) @local)
(lambda_parameters (identifier) @local)
(block_parameters (identifier) @local)
(optional_parameter name: (identifier) @local)
(keyword_parameter name: (identifier) @local)
(splat_parameter name: (identifier) @local)
(hash_splat_parameter name: (identifier) @local)
(block_parameter name: (identifier) @local)
(destructured_parameter (identifier) @local)
(left_assignment_list (identifier) @local)
(exception_variable (identifier) @local)
(for pattern: (identifier) @local)
(operator_assignment left: (identifier) @local)
(assignment left: (identifier) @assign.name right: (_) @assign.value) @assign

; References.
(call receiver: (_)? @call.object method: (_) @call.name arguments: (argument_list)? @call.args block: (_)? @call.block) @call
(body_statement (identifier) @bare)
(program (identifier) @bare)
(block_body (identifier) @bare)
(then (identifier) @bare)
(else (identifier) @bare)
(call receiver: (identifier) @bare)
(argument_list (identifier) @bare)
(assignment right: (identifier) @bare)
(binary left: (identifier) @bare)
(binary right: (identifier) @bare)
(interpolation (identifier) @bare)
(parenthesized_statements (identifier) @bare)
(element_reference object: (identifier) @bare)
(body_statement (super) @super)
(block_body (super) @super)

; Regions.
[(while) (until) (for) (while_modifier) (until_modifier)] @loop
(begin) @try
[(if) (unless) (if_modifier) (unless_modifier) (case) (when) (conditional) (else) (elsif) (rescue_modifier)] @cond
(binary operator: ["&&" "||" "and" "or"] right: (_) @cond)

; A class a rescue clause names.
(exceptions (constant) @rescue)
(exceptions (scope_resolution) @rescue)
