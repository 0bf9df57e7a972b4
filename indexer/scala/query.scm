; The one query of the Scala extractor. Every pattern has a main capture
; named after the item kind and optional role captures "<kind>.<role>".
; Items with the same kind and range are merged, each role keeping its
; first occurrence (the first parameter list of a curried definition).

(package_clause name: (package_identifier) @pkg.name body: (_)? @pkg.body) @pkg
(package_object name: (_) @pkgobj.name body: (template_body)? @pkgobj.body) @pkgobj
(import_declaration) @import
(block_comment) @doc
(annotation) @annot

(class_definition (modifiers)? @class.mods name: (identifier) @class.name class_parameters: (class_parameters)? @class.params body: (template_body)? @class.body) @class
(object_definition (modifiers)? @object.mods name: (identifier) @object.name body: (template_body)? @object.body) @object
(trait_definition (modifiers)? @trait.mods name: (identifier) @trait.name body: (template_body)? @trait.body) @trait
(enum_definition name: (identifier) @enum.name class_parameters: (class_parameters)? @enum.params body: (enum_body) @enum.body) @enum
(extends_clause) @super

(function_definition (modifiers)? @def.mods name: (_) @def.name return_type: (_)? @def.type body: (_) @def.body) @def
(function_declaration (modifiers)? @def.mods name: (_) @def.name return_type: (_)? @def.type) @def
(parameters) @plist
(val_definition (modifiers)? @val.mods pattern: (identifier) @val.name type: (_)? @val.type value: (_) @val.value) @val
(val_declaration (modifiers)? @val.mods name: (identifier) @val.name type: (_)? @val.type) @val
(var_definition (modifiers)? @var.mods pattern: (identifier) @var.name type: (_)? @var.type value: (_) @var.value) @var
(var_declaration (modifiers)? @var.mods name: (identifier) @var.name type: (_)? @var.type) @var
(given_definition (modifiers)? @given.mods name: (identifier) @given.name return_type: (_)? @given.type) @given
(type_definition (modifiers)? @alias.mods name: (type_identifier) @alias.name type: (_)? @alias.type) @alias
[(simple_enum_case name: (identifier) @case.name) (full_enum_case name: (identifier) @case.name class_parameters: (class_parameters)? @case.params)] @case
(class_parameter (modifiers)? @cparam.mods name: (identifier) @cparam.name type: (_)? @cparam.type) @cparam
(parameter name: (identifier) @param.name type: (_)? @param.type) @param

; Pattern variables, lambda parameters, generators.
(typed_pattern pattern: (identifier) @pvar.name type: (_) @pvar.type) @pvar
[(case_class_pattern pattern: (identifier) @pvar.name)
 (tuple_pattern (identifier) @pvar.name)
 (capture_pattern name: (identifier) @pvar.name)
 (case_clause pattern: (identifier) @pvar.name)
 (enumerator . (identifier) @pvar.name)
 (enumerator . (tuple_pattern (identifier) @pvar.name))
 (lambda_expression parameters: (identifier) @pvar.name)
 (bindings (binding name: (identifier) @pvar.name type: (_)? @pvar.type))
 (val_definition pattern: (tuple_pattern (identifier) @pvar.name))] @pvar

; Scopes and regions.
[(block) (template_body) (case_clause) (lambda_expression) (for_expression) (enum_body)] @scope
[(while_expression) (do_while_expression) (for_expression)] @loop
(try_expression body: (_) @try)
(if_expression consequence: (_) @cond)
(if_expression alternative: (_) @cond)
(case_clause body: (_) @cond)

; References.
(call_expression function: (_) @call.object arguments: (_) @call.args) @call
(generic_function function: (_) @generic.object) @generic
(field_expression value: (_) @field.object field: (identifier) @field.name) @field
(instance_expression . [(type_identifier) (generic_type) (stable_type_identifier)] @new.type arguments: (arguments)? @new.args) @new
(parenthesized_expression (_) @paren.value) @paren
(arguments) @args
(arguments (_) @arg)

; Uses of a type: every type name, qualified by its path (tqual). The
; parents of a template, the type of new T and the name an alias declares
; have refs of their own; an annotation's type is read @T; type
; parameters name no type.
(type_parameters name: (identifier) @tparam)
(type_definition name: (type_identifier) @tdef)
(extends_clause (type_identifier) @tdef)
(extends_clause (stable_type_identifier (type_identifier) @tdef))
(extends_clause (generic_type type: (type_identifier) @tdef))
(extends_clause (generic_type type: (stable_type_identifier (type_identifier) @tdef)))
(instance_expression . [(type_identifier) @tdef (stable_type_identifier (type_identifier) @tdef) (generic_type type: [(type_identifier) @tdef (stable_type_identifier (type_identifier) @tdef)])])
(annotation name: (type_identifier) @tannot)
(stable_type_identifier) @tqual
(type_identifier) @tuse
