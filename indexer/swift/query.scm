; The one query of the Swift extractor. Every pattern has a main capture
; named after the item kind and optional role captures "<kind>.<role>".
; Items with the same kind and range are merged, each role keeping its
; first occurrence: a node's roles come from several patterns, since a
; pattern matches only the first child of a repeated field.

(import_declaration) @import
[(comment) (multiline_comment)] @doc
(attribute) @annot
(modifiers) @mods

(class_declaration name: (_) @type.name) @type
(class_declaration body: (_) @type.body) @type
(protocol_declaration name: (_) @proto.name) @proto
(protocol_declaration body: (_) @proto.body) @proto
(inheritance_specifier) @super

(function_declaration name: (simple_identifier) @fn.name) @fn
(function_declaration body: (_) @fn.body) @fn
(protocol_function_declaration name: (simple_identifier) @fn.name) @fn
(init_declaration) @init
(init_declaration body: (_) @init.body) @init
(property_declaration name: (pattern bound_identifier: (simple_identifier) @prop.name)) @prop
(property_declaration (type_annotation) @prop.type) @prop
(protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @prop.name)) @prop
(protocol_property_declaration (type_annotation) @prop.type) @prop
(typealias_declaration name: (type_identifier) @alias.name) @alias
(enum_entry) @case
(parameter) @param
(lambda_parameter) @lparam

; Bindings of patterns: if let, guard let, for, switch cases, catch.
(if_statement bound_identifier: (simple_identifier) @bind.name) @bind
(guard_statement bound_identifier: (simple_identifier) @bind.name) @bind
(pattern bound_identifier: (simple_identifier) @bind.name) @bind

; Scopes and regions.
[(statements) (function_body) (class_body) (enum_class_body) (protocol_body) (lambda_literal) (if_statement) (switch_entry) (for_statement) (catch_block) (computed_property)] @scope
[(for_statement) (while_statement) (repeat_while_statement)] @loop
(do_statement) @try
(if_statement (statements) @cond)
(switch_entry) @cond

; References.
(call_expression . (_) @call.object (call_suffix) @call.args) @call
(navigation_expression target: (_) @nav.object suffix: (navigation_suffix suffix: (simple_identifier) @nav.name)) @nav
(try_expression expr: (_) @paren.value) @paren
(await_expression expr: (_) @paren.value) @paren
(postfix_expression target: (_) @paren.value) @paren
(call_suffix) @args
(value_argument) @arg
(value_argument name: (value_argument_label) @arg.name) @arg
(call_suffix (lambda_literal) @closure)
(property_declaration value: _ @prop.value) @prop
(property_declaration computed_value: (_) @prop.body) @prop
; An operator expression whose right operand is called parses as the
; call's function: a + b.c() is (a + b.c)(); the call is b.c().
([(additive_expression) (bitwise_operation) (comparison_expression) (conjunction_expression) (disjunction_expression) (equality_expression) (infix_expression) (multiplicative_expression) (nil_coalescing_expression) (range_expression) (ternary_expression) (prefix_expression) (as_expression) (check_expression)] @bin)

; Uses of a type: every user type (supertypes, the type an extension
; extends and attributes have refs of their own), and the generic
; parameters they may name.
(type_parameter (type_identifier) @tparam)
(attribute (user_type) @tannot)
(user_type) @tuse
