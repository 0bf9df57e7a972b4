; TypeScript's own patterns, for the typescript and tsx grammars (with
; common.scm, and jsx.scm for tsx).

(function_declaration name: (_) @function.name return_type: (_)? @function.return body: (_) @function.body) @function
(generator_function_declaration name: (_) @function.name return_type: (_)? @function.return body: (_) @function.body) @function
(function_signature name: (_) @function.name return_type: (_)? @function.return) @function
(function_expression name: (_)? @lambda.name return_type: (_)? @lambda.return body: (_) @lambda.body) @lambda
(generator_function name: (_)? @lambda.name return_type: (_)? @lambda.return body: (_) @lambda.body) @lambda
(arrow_function return_type: (_)? @lambda.return body: (_) @lambda.body) @lambda
(method_definition name: (_) @method.name return_type: (_)? @method.return body: (_) @method.body) @method
(class_body (method_signature name: (_) @method.name return_type: (_)? @method.return) @method)
(interface_body (method_signature name: (_) @method.name return_type: (_)? @method.return) @method)
; A type literal's members are no members of the class around it.
(object_type (method_signature return_type: (_)? @lambda.return) @lambda)
(abstract_method_signature name: (_) @method.name return_type: (_)? @method.return) @method

(class_declaration name: (_) @class.name body: (_) @class.body) @class
(abstract_class_declaration name: (_) @class.name body: (_) @class.body) @class
(class name: (_)? @class.name body: (_) @class.body) @class
(interface_declaration name: (_) @interface.name body: (_) @interface.body) @interface
(enum_declaration name: (_) @enum.name body: (_) @enum.body) @enum
(internal_module name: (_) @namespace.name body: (_)? @namespace.body) @namespace
(module name: (_) @namespace.name body: (_)? @namespace.body) @namespace
(type_alias_declaration name: (_) @alias.name value: (_) @alias.value) @alias

(extends_clause value: (_) @extends)
(extends_type_clause type: (_) @extends)
(implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @implements)

(public_field_definition name: (_) @field.name type: (_)? @field.type value: (_)? @field.value) @field
(interface_body (property_signature name: (_) @field.name type: (_)? @field.type) @field)
(enum_body name: (_) @member)
(enum_assignment name: (_) @member)
(type_parameter name: (_) @tparam constraint: (_)? @tparam.type)

(variable_declarator name: (_) @var.name type: (_)? @var.type value: (_)? @var.value) @var
(required_parameter pattern: (_) @param.name type: (_)? @param.type) @param
(optional_parameter pattern: (_) @param.name type: (_)? @param.type) @param

(internal_module body: (statement_block [(lexical_declaration) (variable_declaration)] @topdecl))
(ambient_declaration [(lexical_declaration) (variable_declaration)] @topdecl)
(call_expression type_arguments: (_) @targs)
(new_expression type_arguments: (_) @targs)
(import_require_clause (identifier) @defimport source: (_) @defimport.source)

; Every type name: a use of the type (see uses.go).
(type_identifier) @tuse
(nested_type_identifier) @tuse

; A function or class cast or checked: (x => x) as T, class {} satisfies T.
(parenthesized_expression [(as_expression) (satisfies_expression)] @wrap.inner) @wrap
(as_expression [(arrow_function) (function_expression) (generator_function) (class) (parenthesized_expression) (as_expression) (satisfies_expression)] @wrap.inner) @wrap
(satisfies_expression [(arrow_function) (function_expression) (generator_function) (class) (parenthesized_expression) (as_expression) (satisfies_expression)] @wrap.inner) @wrap

; Where x instanceof C narrows x (see narrowed in expr.go): the
; consequence of an if statement or a conditional, the right operand of &&.
(if_statement
  condition: (parenthesized_expression (binary_expression left: (identifier) @narrow.name operator: "instanceof" right: (_) @narrow.type))
  consequence: (_) @narrow)
(if_statement
  condition: (parenthesized_expression (binary_expression
    left: (binary_expression left: (identifier) @narrow.name operator: "instanceof" right: (_) @narrow.type)
    operator: "&&"))
  consequence: (_) @narrow)
(binary_expression
  left: (binary_expression left: (identifier) @narrow.name operator: "instanceof" right: (_) @narrow.type)
  operator: "&&"
  right: (_) @narrow)
(ternary_expression
  condition: (binary_expression left: (identifier) @narrow.name operator: "instanceof" right: (_) @narrow.type)
  consequence: (_) @narrow)
