; The one query of the Kotlin extractor. Every pattern has a main capture
; named after the item kind and optional role captures "<kind>.<role>".
; Items with the same kind and range are merged (optional role captures
; may yield several matches of one node).

(package_header (qualified_identifier) @package.name) @package
(import) @import
(block_comment) @doc

(class_declaration (modifiers)? @class.mods name: (identifier) @class.name) @class
(object_declaration (modifiers)? @object.mods name: (identifier) @object.name) @object
(companion_object (modifiers)? @companion.mods name: (identifier)? @companion.name) @companion
(function_declaration
  (modifiers)? @fun.mods
  (type_parameters)?
  [(user_type) (nullable_type) (parenthesized_type)]? @fun.recv
  .
  name: (identifier) @fun.name
  (function_value_parameters) @fun.params
  .
  [(user_type) (nullable_type) (function_type) (parenthesized_type) (non_nullable_type)]? @fun.type
  (function_body)? @fun.body) @fun
(secondary_constructor (modifiers)? @ctor.mods (function_value_parameters) @ctor.params) @ctor
(primary_constructor (modifiers)? @pctor.mods (class_parameters) @pctor.params) @pctor
(class_parameter (modifiers)? @cparam.mods (identifier) @cparam.name . [(user_type) (nullable_type) (function_type) (parenthesized_type) (non_nullable_type)]? @cparam.type) @cparam
(property_declaration
  (modifiers)? @prop.mods
  (variable_declaration (identifier) @prop.name . [(user_type) (nullable_type) (function_type) (parenthesized_type) (non_nullable_type)]? @prop.type)
  .
  (_)? @prop.value) @prop
(type_alias (modifiers)? @alias.mods type: (identifier) @alias.name) @alias
(enum_entry . (identifier) @entry.name) @entry
(delegation_specifier [(constructor_invocation (user_type) @super.name (value_arguments) @super.args) (user_type) @super.name]) @super
(annotation) @decorator
(parameter (identifier) @param.name . [(user_type) (nullable_type) (function_type) (parenthesized_type) (non_nullable_type)] @param.type) @param
(variable_declaration (identifier) @var.name) @var
(anonymous_initializer) @init

; Scopes and regions.
[(block) (function_body) (class_body) (enum_class_body)] @scope
(lambda_literal) @lambda
(object_literal) @anon
[(for_statement) (while_statement) (do_while_statement)] @loop
(try_expression (block) @try)
(if_expression condition: (_) . (_) @cond)
(if_expression "else" . (_) @cond)
(when_entry) @cond
(binary_expression operator: ["&&" "||"] right: (_) @cond)

; References.
(call_expression . (_) @call.object) @call
(value_arguments) @args
(value_argument (_) @arg.value .) @arg
(annotated_lambda) @lambdaarg
(navigation_expression . (_) @nav.object (identifier) @nav.name .) @nav
(parenthesized_expression (_) @paren.value) @paren
(constructor_delegation_call (value_arguments) @deleg.args) @deleg

; Uses of a type: every user type (the supertypes of a declaration have
; their own refs); an annotation's type; the type parameters they may name.
(type_parameter (identifier) @tparam)
(annotation [(user_type) @annot (constructor_invocation (user_type) @annot)])
(user_type) @use
