; The one query of the C# extractor. Every pattern has a main capture named
; after the item kind and, optionally, role captures "<kind>.<role>".
; extract.go reads the items in document order; the rest is done in Go over
; byte ranges.

; Files.
(namespace_declaration name: (_) @ns.name body: (declaration_list) @ns.body) @ns
(file_scoped_namespace_declaration name: (_) @ns.name) @ns
(using_directive) @using
(comment) @doc

; Types.
(class_declaration name: (identifier) @class.name body: (declaration_list)? @class.body) @class
(struct_declaration name: (identifier) @struct.name body: (declaration_list)? @struct.body) @struct
(record_declaration name: (identifier) @record.name (parameter_list)? @record.params body: (declaration_list)? @record.body) @record
(interface_declaration name: (identifier) @interface.name body: (declaration_list)? @interface.body) @interface
(enum_declaration name: (identifier) @enum.name body: (enum_member_declaration_list) @enum.body) @enum
(delegate_declaration type: (_) @delegate.type name: (identifier) @delegate.name parameters: (parameter_list) @delegate.params) @delegate
(base_list (_) @base)

(type_parameter_list (type_parameter) @tparam)
(modifier) @modifier
(attribute_list (attribute) @attr)

; Members.
(method_declaration returns: (_) @method.type name: (identifier) @method.name parameters: (parameter_list) @method.params body: (_)? @method.body) @method
(constructor_declaration name: (identifier) @ctor.name parameters: (parameter_list) @ctor.params body: (_)? @ctor.body) @ctor
(destructor_declaration name: (identifier) @dtor.name body: (_)? @dtor.body) @dtor
(property_declaration type: (_) @prop.type name: (identifier) @prop.name) @prop
(event_declaration type: (_) @event.type name: (identifier) @event.name) @event
(field_declaration (variable_declaration type: (_) @fields.type)) @fields
(event_field_declaration (variable_declaration type: (_) @efields.type)) @efields
(enum_member_declaration name: (identifier) @member.name) @member
(conversion_operator_declaration) @convop
(local_function_statement name: (identifier) @localfn.name parameters: (parameter_list) @localfn.params) @localfn

; Bindings.
(local_declaration_statement (variable_declaration type: (_) @locals.type)) @locals
(using_statement (variable_declaration type: (_) @locals.type)) @locals
(for_statement (variable_declaration type: (_) @locals.type)) @locals
(variable_declarator name: (identifier) @var.name) @var
(parameter type: (_)? @param.type name: (identifier) @param.name) @param
(parameter_list "params" @param . type: (_) @param.type . name: (identifier) @param.name)
(lambda_expression parameters: (implicit_parameter) @lparam)
(foreach_statement type: (_) @foreach.type left: (identifier) @foreach.name right: (_) @foreach.value) @foreach
(catch_declaration type: (_) @catch.type name: (identifier) @catch.name) @catch
(declaration_pattern type: (_) @pattern.type name: (identifier) @pattern.name) @pattern
(declaration_expression type: (_) @pattern.type name: (identifier) @pattern.name) @pattern

; Scopes: locals declared in them are visible to their end.
[(block) (switch_section) (for_statement) (foreach_statement) (catch_clause) (using_statement) (lambda_expression) (arrow_expression_clause)] @scope

; References.
(invocation_expression function: (_) @invoke.object arguments: (argument_list) @invoke.args) @invoke
(object_creation_expression type: (_) @new.type arguments: (argument_list)? @new.args) @new
(constructor_initializer (argument_list) @ctorcall.args) @ctorcall
(argument_list) @args
(argument_list (argument) @arg)

; Expressions a receiver is made of.
(member_access_expression expression: _ @field.object name: (_) @field.name) @field
(cast_expression type: (_) @cast.type value: (_) @cast.value) @cast
(parenthesized_expression (_) @paren.value) @paren
(await_expression (_) @await.value) @await

; Regions.
[(for_statement) (foreach_statement) (while_statement) (do_statement)] @loop
(try_statement body: (block) @try)
(if_statement consequence: (_) @cond)
(if_statement alternative: (_) @cond)
(conditional_expression consequence: (_) @cond)
(conditional_expression alternative: (_) @cond)
(switch_section) @cond
(binary_expression operator: ["&&" "||" "??"] right: (_) @cond)

; Types named in expressions, constraints and patterns; a constant pattern
; that may name a type.
(cast_expression type: (_) @use)
(catch_declaration type: (_) @use)
(as_expression right: (_) @use)
(is_expression right: (_) @use)
(type_pattern type: (_) @use)
(recursive_pattern type: (_) @use)
(typeof_expression type: (_) @use)
(default_expression type: (_) @use)
(sizeof_expression type: (_) @use)
(array_creation_expression type: (_) @use)
(stackalloc_expression type: (_) @use)
(type_parameter_constraint type: (_) @use)
(local_function_statement type: (_) @use)
(indexer_declaration type: (_) @use)
(operator_declaration type: (_) @use)
(conversion_operator_declaration type: (_) @use)
(invocation_expression function: (generic_name (type_argument_list) @use))
(member_access_expression name: (generic_name (type_argument_list) @use))
(constant_pattern [(identifier) (qualified_name) (member_access_expression)] @istype)
