; The query of the C extractor, and the first part of the C++ one (the C++
; grammar extends the C grammar). Every pattern has a main capture named
; after the item kind and, optionally, role captures "<kind>.<role>".
; extract.go reads the items in document order; the rest is done in Go over
; byte ranges.

(comment) @doc
(preproc_include path: (_) @include.value) @include
(preproc_def name: (identifier) @define.name value: (_)? @define.value) @define
(preproc_function_def name: (identifier) @define.name parameters: (preproc_params) @define.params value: (_)? @define.value) @define

; Types.
(struct_specifier name: (_)? @class.name body: (field_declaration_list) @class.body) @class
(union_specifier name: (_)? @class.name body: (field_declaration_list) @class.body) @class
(enum_specifier name: (_)? @enum.name body: (enumerator_list) @enum.body) @enum
(enumerator name: (identifier) @member.name) @member
(type_definition type: (_) @typedef.type declarator: (_) @typedef.name) @typedef

; Declarations.
(function_definition type: (_)? @func.type declarator: (_) @func.name body: (_) @func.body) @func
(declaration type: (_)? @decl.type) @decl
(field_declaration type: (_)? @fields.type) @fields
(declaration declarator: (_) @declarator)
(field_declaration declarator: (_) @declarator)
(function_declarator declarator: (_) @fdecl.name parameters: (parameter_list) @fdecl.params) @fdecl
(init_declarator value: (_) @init.value) @init
(parameter_declaration type: (_) @param.type declarator: (_)? @param.name) @param

; Scopes: locals declared in them are visible to their end.
[(compound_statement) (for_statement)] @scope

; References.
(call_expression function: (_) @call.object arguments: (argument_list) @call.args) @call
(field_expression argument: (_) @field.object field: (_) @field.name) @field
(parenthesized_expression (_) @paren.value) @paren
(cast_expression type: (_) @cast.type value: (_) @cast.value) @cast
(pointer_expression argument: (_) @paren.value) @paren

; Regions.
[(for_statement) (while_statement) (do_statement)] @loop
(if_statement consequence: (_) @cond)
(if_statement alternative: (_) @cond)
(conditional_expression consequence: (_) @cond)
(conditional_expression alternative: (_) @cond)
(case_statement) @cond
(binary_expression operator: ["&&" "||"] right: (_) @cond)

; Uses of a type: every type name. A name a definition, a forward
; declaration or a typedef declares is none (extract.go tells them by the
; text of the specifier), nor the type of new T or a base class, which
; have their own refs.
(type_identifier) @tuse
(struct_specifier name: (type_identifier) @spec.name) @spec
(union_specifier name: (type_identifier) @spec.name) @spec
(enum_specifier name: (type_identifier) @spec.name) @spec
