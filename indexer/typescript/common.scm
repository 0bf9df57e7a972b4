; Patterns of the extractor's query shared by the three grammars
; (javascript.scm and typescript.scm add their own). Every pattern has a
; main capture named after the item kind and, optionally, role captures
; named "<kind>.<role>". extract.go reads the items in document order;
; everything else is done in Go over byte ranges.

; Module-level declarations (their declarators become variables).
(program [(lexical_declaration) (variable_declaration)] @topdecl)
(export_statement declaration: [(lexical_declaration) (variable_declaration)] @topdecl)

; Exports and imports.
(export_statement
  declaration: (_)? @export.decl
  value: (_)? @export.value
  source: (_)? @export.source) @export
(export_specifier name: (_) @spec.name alias: (_)? @spec.alias) @spec
(namespace_export (_) @nsexport)
(import_statement source: (_)? @import.source) @import
(import_clause (identifier) @defimport)
(namespace_import (identifier) @nsimport)
(import_specifier name: (_) @spec.name alias: (_)? @spec.alias) @spec

; Object literals whose functions may be symbols.
(variable_declarator value: (object) @object)
(assignment_expression right: (object) @object)
(export_statement value: (object) @object)
(arguments (object) @object)
(return_statement (object) @object)
(pair key: (_) @pair.key value: (_) @pair.value) @pair
(object (shorthand_property_identifier) @shorthand)

; A function or class in parentheses: (function () {}), ((x) => x).
(parenthesized_expression [(arrow_function) (function_expression) (generator_function) (class) (parenthesized_expression)] @wrap.inner) @wrap

; Bindings.
(assignment_expression left: (_) @assign right: (_) @assign.value)
(augmented_assignment_expression left: (identifier) @bind)
(update_expression argument: (identifier) @bind)
(shorthand_property_identifier_pattern) @bind
(pair_pattern key: (_) @bind.key value: (identifier) @bind)
(array_pattern (identifier) @bind)
(rest_pattern (identifier) @bind)
(assignment_pattern left: (identifier) @bind)
(for_in_statement left: (identifier) @bind right: (_) @bind.value)
(catch_clause parameter: (identifier) @bind)
(arrow_function parameter: (identifier) @bind)
[(object_pattern) (array_pattern)] @pattern

; References.
(call_expression function: (_) @call arguments: (_) @call.args)
(new_expression constructor: (_) @new arguments: (_)? @new.args)
(decorator) @decorator
(binary_expression operator: "instanceof" right: (_) @instanceof)
(comment) @comment

; Regions.
(for_statement body: (_) @loop)
(for_in_statement body: (_) @loop)
(while_statement body: (_) @loop)
(do_statement body: (_) @loop)
(try_statement body: (_) @try)
(if_statement consequence: (_) @cond)
(if_statement alternative: (_) @cond)
(ternary_expression consequence: (_) @cond alternative: (_) @cond)
(switch_case) @cond
(switch_default) @cond
(binary_expression operator: ["&&" "||" "??"] right: (_) @cond)
