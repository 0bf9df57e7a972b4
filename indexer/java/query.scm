; The one query of the Java extractor. Every pattern has a main capture
; named after the item kind ("method", "invoke", ...) and, optionally, role
; captures named "<kind>.<role>". extract.go reads the items in document
; order; everything else is done in Go over byte ranges.

; Files.
(package_declaration [(identifier) (scoped_identifier)] @package.name) @package
(import_declaration) @import
(block_comment) @doc

; Type declarations.
(class_declaration name: (identifier) @class.name body: (class_body) @class.body) @class
(interface_declaration name: (identifier) @interface.name body: (interface_body) @interface.body) @interface
(enum_declaration name: (identifier) @enum.name body: (enum_body) @enum.body) @enum
(record_declaration name: (identifier) @record.name parameters: (formal_parameters) @record.params body: (class_body) @record.body) @record
(annotation_type_declaration name: (identifier) @annotype.name body: (annotation_type_body) @annotype.body) @annotype

(superclass (_) @extends)
(extends_interfaces (type_list (_) @extends))
(super_interfaces (type_list (_) @implements))
(type_parameters (type_parameter) @tparam)

(modifiers) @modifiers
(modifiers [(annotation) (marker_annotation)] @decorator)

; Members.
(method_declaration
  type: (_) @method.type
  name: (identifier) @method.name
  parameters: (formal_parameters) @method.params
  body: (block)? @method.body) @method
(annotation_type_element_declaration
  type: (_) @method.type
  name: (identifier) @method.name) @method
(constructor_declaration
  name: (identifier) @ctor.name
  parameters: (formal_parameters) @ctor.params
  body: (constructor_body) @ctor.body) @ctor
(compact_constructor_declaration
  name: (identifier) @ctor.name
  body: (block) @ctor.body) @ctor
(field_declaration type: (_) @fields.type) @fields
(constant_declaration type: (_) @fields.type) @fields
(enum_constant
  name: (identifier) @const.name
  arguments: (argument_list)? @const.args
  body: (class_body)? @const.body) @const
[(static_initializer) @init (class_body (block) @init)]

; Bindings.
(local_variable_declaration type: (_) @locals.type) @locals
(variable_declarator name: (_) @var.name value: (_)? @var.value) @var
(formal_parameter type: (_) @param.type name: (_) @param.name) @param
(spread_parameter) @spread
(lambda_expression parameters: (identifier) @lparam)
(inferred_parameters (identifier) @lparam)
(catch_formal_parameter (catch_type) @catch.type name: (_) @catch.name) @catch
(enhanced_for_statement type: (_) @foreach.type name: (_) @foreach.name value: (_) @foreach.value) @foreach
(resource type: (_) @resource.type name: (_) @resource.name value: (_) @resource.value) @resource
(instanceof_expression right: (_) @pattern.type name: (identifier) @pattern.name) @pattern
(type_pattern (_) @pattern.type (identifier) @pattern.name) @pattern
(record_pattern_component (_) @pattern.type (identifier) @pattern.name) @pattern

; Scopes: locals declared in them are visible to their end.
[(block) (constructor_body) (switch_block) (for_statement) (catch_clause) (try_with_resources_statement)] @scope
(lambda_expression) @lambda

; References.
(method_invocation
  object: (_)? @invoke.object
  name: (identifier) @invoke.name
  arguments: (argument_list) @invoke.args) @invoke
(object_creation_expression
  type: (_) @new.type
  arguments: (argument_list) @new.args
  (class_body)? @new.body) @new
(explicit_constructor_invocation constructor: (_) @ctorcall.name arguments: (argument_list) @ctorcall.args) @ctorcall
(method_reference . (_) @mref.object) @mref
(argument_list) @args
(argument_list (expression) @arg)

; Every type name: a use of the type (see uses.go).
(type_identifier) @tuse
(scoped_type_identifier) @tuse

; Expressions a receiver is made of.
(field_access object: (_) @field.object field: (_) @field.name) @field
(cast_expression type: (_) @cast.type value: (_) @cast.value) @cast
(parenthesized_expression (expression) @paren.value) @paren
(array_access array: (_) @index.value) @index
(ternary_expression consequence: (_) @ternary.value alternative: (_) @ternary.body) @ternary
(assignment_expression left: (_) @assign.object right: (_) @assign.value) @assign
(binary_expression left: (_) @binary.value right: (_) @binary.body) @binary
(unary_expression operand: (_) @unary.value) @unary
(array_creation_expression type: (_) @newarray.type) @newarray

; Regions.
(for_statement condition: (_) @loop)
(for_statement update: (_) @loop)
(for_statement body: (_) @loop)
(enhanced_for_statement body: (_) @loop)
[(while_statement) (do_statement)] @loop
(try_statement body: (block) @try)
(try_with_resources_statement resources: (_) @try)
(try_with_resources_statement body: (block) @try)
(if_statement consequence: (_) @cond)
(if_statement alternative: (_) @cond)
(ternary_expression consequence: (_) @cond)
(ternary_expression alternative: (_) @cond)
[(switch_block_statement_group) (switch_rule)] @cond
(binary_expression operator: ["&&" "||"] right: (_) @cond)
