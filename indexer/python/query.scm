; The one query of the Python extractor. Every pattern has a main capture
; named after the item kind ("function", "call", ...) and, optionally, role
; captures named "<kind>.<role>". extract.go reads the items in document
; order; everything else is done in Go over byte ranges.

; Definitions.
(function_definition
  name: (identifier) @function.name
  return_type: (type)? @function.return
  body: (block) @function.body) @function

(class_definition
  name: (identifier) @class.name
  body: (block) @class.body) @class

(class_definition
  superclasses: (argument_list [(identifier) (attribute) (subscript) (call)] @base))

(type_alias_statement
  left: (type (identifier) @alias.name)) @alias

(decorated_definition) @decorated
(decorator) @decorator

(module . (comment)* . (expression_statement . (string) @doc))
(function_definition body: (block . (expression_statement . (string) @doc)))
(class_definition body: (block . (expression_statement . (string) @doc)))

; Bindings. An assignment's item is its left side.
(assignment
  left: (_) @assign
  type: (type)? @assign.type
  right: (_)? @assign.value)
(named_expression
  name: (identifier) @assign
  value: (_) @assign.value)

(augmented_assignment left: (identifier) @bind)
(pattern_list (identifier) @bind)
(tuple_pattern (identifier) @bind)
(list_pattern (identifier) @bind)
(list_splat_pattern (identifier) @bind)
(dictionary_splat_pattern (identifier) @bind)
(for_statement left: (identifier) @iter right: (_) @iter.value)
(for_in_clause left: (identifier) @iter right: (_) @iter.value)
(for_statement left: [(pattern_list) (tuple_pattern)] @unpack right: (_) @unpack.value)
(for_in_clause left: [(pattern_list) (tuple_pattern)] @unpack right: (_) @unpack.value)
(with_statement (with_clause (with_item value: (as_pattern (_) @as.value alias: (as_pattern_target (identifier) @as))))) @as.clause
(except_clause value: (as_pattern (_) @as.value alias: (as_pattern_target (identifier) @as))) @as.clause
(as_pattern_target (tuple (identifier) @bind))
(as_pattern_target (list (identifier) @bind))
(global_statement (identifier) @global)
(nonlocal_statement (identifier) @nonlocal)

(parameters (identifier) @param)
(parameters (default_parameter name: (identifier) @param))
(parameters (typed_parameter (identifier) @param type: (type) @param.type))
(parameters (typed_default_parameter name: (identifier) @param type: (type) @param.type))
(lambda_parameters (identifier) @param)
(lambda_parameters (default_parameter name: (identifier) @param))

(import_statement name: (dotted_name) @import)
(import_statement name: (aliased_import name: (dotted_name) @import alias: (identifier) @import.alias))
(import_from_statement module_name: (_) @import.module name: (dotted_name) @import)
(import_from_statement module_name: (_) @import.module name: (aliased_import name: (dotted_name) @import alias: (identifier) @import.alias))
(import_from_statement module_name: (_) @import.module (wildcard_import) @import)

(if_statement condition: (call) @narrow.value consequence: (block) @narrow)
(elif_clause condition: (call) @narrow.value consequence: (block) @narrow)
(return_statement (_) @return)
(yield) @yield

; References.
(call function: (_) @call arguments: (_) @call.args)
(type) @annot
(except_clause value: (as_pattern . (_) @except))
(except_clause value: [(identifier) (attribute) (tuple) (parenthesized_expression)] @except)

; Scopes and regions.
(lambda) @lambda
[(list_comprehension) (set_comprehension) (dictionary_comprehension) (generator_expression)] @comprehension
(for_statement body: (block) @loop)
(while_statement) @loop
(try_statement body: (block) @try)
(if_statement consequence: (block) @cond)
(if_statement alternative: (_) @cond)
(conditional_expression (_) @cond "if" (_) "else" (_) @cond)
(case_clause) @cond
(boolean_operator right: (_) @cond)
