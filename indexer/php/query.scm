; The one query of the PHP extractor. Every pattern has a main capture named
; after the item kind and, optionally, role captures "<kind>.<role>".
; extract.go reads the items in document order; the rest is done in Go over
; byte ranges.

; Files.
(namespace_definition name: (namespace_name)? @ns.name body: (compound_statement)? @ns.body) @ns
(namespace_use_declaration) @use
(comment) @doc
[(require_expression) (require_once_expression) (include_expression) (include_once_expression)] @require

; Types.
(class_declaration name: (name) @class.name body: (declaration_list) @class.body) @class
(interface_declaration name: (name) @interface.name body: (declaration_list) @interface.body) @interface
(trait_declaration name: (name) @trait.name body: (declaration_list) @trait.body) @trait
(enum_declaration name: (name) @enum.name body: (enum_declaration_list) @enum.body) @enum
(anonymous_class) @anon
(base_clause [(name) (qualified_name) (relative_name)] @base)
(class_interface_clause [(name) (qualified_name) (relative_name)] @impl)
(use_declaration [(name) (qualified_name) (relative_name)] @traituse)
[(visibility_modifier) (static_modifier) (abstract_modifier) (final_modifier) (readonly_modifier) (var_modifier)] @modifier

; Members.
(method_declaration name: (name) @method.name parameters: (formal_parameters) @method.params return_type: (_)? @method.type body: (compound_statement)? @method.body) @method
(function_definition name: (name) @func.name parameters: (formal_parameters) @func.params return_type: (_)? @func.type body: (compound_statement) @func.body) @func
(property_declaration type: (_)? @props.type) @props
(property_element name: (variable_name (name) @prop.name)) @prop
(const_declaration) @consts
(const_element (name) @const.name) @const
(enum_case name: (name) @case.name) @case
(property_promotion_parameter type: (_)? @promo.type name: (variable_name (name) @promo.name)) @promo

; Bindings and scopes.
(simple_parameter type: (_)? @param.type name: (variable_name (name) @param.name)) @param
(variadic_parameter name: (variable_name (name) @param.name)) @param
(assignment_expression left: (variable_name (name) @assign.name) right: (_) @assign.value) @assign
(catch_clause type: (type_list . (named_type) @catch.type .) name: (variable_name (name) @catch.name)) @catch
[(anonymous_function) (arrow_function)] @closure

; References.
(function_call_expression function: (_) @call.object arguments: (arguments) @call.args) @call
(member_call_expression object: (_) @mcall.object name: (name) @mcall.name arguments: (arguments) @mcall.args) @mcall
(nullsafe_member_call_expression object: (_) @mcall.object name: (name) @mcall.name arguments: (arguments) @mcall.args) @mcall
(scoped_call_expression scope: (_) @scall.object name: (name) @scall.name arguments: (arguments) @scall.args) @scall
(object_creation_expression [(name) (qualified_name) (relative_name)] @new.type (arguments)? @new.args) @new
(arguments (argument) @arg)

; Expressions a receiver is made of.
(member_access_expression object: (_) @field.object name: (name) @field.name) @field
(nullsafe_member_access_expression object: (_) @field.object name: (name) @field.name) @field
(parenthesized_expression (_) @paren.value) @paren

; Regions.
[(for_statement) (foreach_statement) (while_statement) (do_statement)] @loop
(try_statement body: (compound_statement) @try)
(if_statement body: (_) @cond)
(else_clause) @cond
(else_if_clause) @cond
(conditional_expression) @cond
(match_expression) @cond
(switch_block) @cond
(binary_expression operator: ["&&" "||" "??" "and" "or"] right: (_) @cond)

; Variables bound by what the extractor does not follow: they are of
; unknown type wherever they are bound so.
(foreach_statement (variable_name (name) @unk.name)) @unk
(foreach_statement (pair (variable_name (name) @unk.name))) @unk
(foreach_statement (by_ref (variable_name (name) @unk.name))) @unk
(list_literal (variable_name (name) @unk.name)) @unk
(reference_assignment_expression left: (variable_name (name) @unk.name)) @unk
(global_declaration (variable_name (name) @unk.name)) @unk
(static_variable_declaration name: (variable_name (name) @unk.name)) @unk
(anonymous_function_use_clause (by_ref (variable_name (name) @unk.name))) @unk

; Uses of a type: every named type of a declaration (a property's,
; parameter's or result's type, a caught type), the class of instanceof,
; and the class of an attribute.
(named_type) @tuse
(binary_expression operator: "instanceof" right: [(name) (qualified_name) (relative_name)] @tuse)
(attribute [(name) (qualified_name) (relative_name)] @tannot)
