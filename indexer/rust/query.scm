; The one query of the Rust extractor. Every pattern has a main capture
; named after the item kind ("fn", "call", ...) and, optionally, role
; captures named "<kind>.<role>". extract.go reads the items in document
; order; everything else (paths, patterns, use trees, generics) is read in
; Go from byte ranges.

; Definitions.
(mod_item
  name: (identifier) @mod.name
  body: (declaration_list)? @mod.body) @mod

(function_item
  name: (_) @fn.name
  parameters: (parameters) @fn.params
  return_type: (_)? @fn.type
  body: (block) @fn.body) @fn

(function_signature_item
  name: (_) @fn.name
  parameters: (parameters) @fn.params
  return_type: (_)? @fn.type) @fn

(struct_item
  name: (type_identifier) @struct.name
  body: (_)? @struct.body) @struct

(union_item
  name: (type_identifier) @union.name
  body: (_) @union.body) @union

(enum_item
  name: (type_identifier) @enum.name
  body: (_) @enum.body) @enum

(enum_variant
  name: (identifier) @variant.name) @variant

(field_declaration
  name: (field_identifier) @field.name
  type: (_) @field.type) @field

(ordered_field_declaration_list
  type: (_) @tfield)

(trait_item
  name: (type_identifier) @trait.name
  bounds: (trait_bounds)? @trait.type
  body: (declaration_list) @trait.body) @trait

(impl_item
  trait: (_)? @impl.name
  type: (_) @impl.type
  body: (declaration_list)? @impl.body) @impl

(const_item
  name: (identifier) @const.name
  type: (_)? @const.type
  value: (_)? @const.value) @const

(static_item
  name: (identifier) @static.name
  type: (_) @static.type
  value: (_)? @static.value) @static

(type_item
  name: (type_identifier) @alias.name
  type: (_) @alias.type) @alias

(macro_definition
  name: (identifier) @macro.name) @macro

(type_parameters) @generics
(where_clause) @where

(attribute_item) @attr
(inner_attribute_item) @innerattr
(line_comment outer: (_)) @doc
(block_comment outer: (_)) @doc
(line_comment inner: (_)) @innerdoc
(block_comment inner: (_)) @innerdoc

(use_declaration argument: (_) @use.value) @use
(extern_crate_declaration name: (identifier) @extern.name alias: (identifier)? @extern.value) @extern

; Bindings: what patterns bind is read from their text.
(let_declaration
  pattern: (_) @let.pattern
  type: (_)? @let.type
  value: (_)? @let.value) @let
(let_condition
  pattern: (_) @letcond.pattern
  value: (_) @letcond.value) @letcond
(parameter
  pattern: (_) @param.pattern
  type: (_) @param.type) @param
(closure_expression
  parameters: (closure_parameters) @closure.pattern) @closure
(for_expression
  pattern: (_) @for.pattern
  value: (_) @for.value
  body: (block) @for.body) @for
(match_expression
  value: (_) @match.value) @match
(match_arm
  pattern: (_) @arm.pattern) @arm

; References.
(call_expression
  function: (_) @call
  arguments: (arguments) @call.args)
(macro_invocation
  macro: (_) @mcall
  (token_tree) @mcall.args)
(struct_expression
  name: (_) @new)

; Scopes and regions.
(block) @block
(while_expression) @loop
(loop_expression) @loop
[(if_expression) (while_expression)] @letscope
(if_expression consequence: (_) @cond)
(if_expression alternative: (_) @cond)
(try_block) @try

; Uses of a type: every type name, qualified by its path (tqual). The
; names an item, an associated type or a generic parameter declares are
; none.
(type_identifier) @tuse
(scoped_type_identifier) @tqual
(struct_item name: (type_identifier) @tdef)
(union_item name: (type_identifier) @tdef)
(enum_item name: (type_identifier) @tdef)
(trait_item name: (type_identifier) @tdef)
(type_item name: (type_identifier) @tdef)
(associated_type name: (type_identifier) @tdef)
(type_parameter name: (type_identifier) @tdef)
(type_binding name: (type_identifier) @tdef)
