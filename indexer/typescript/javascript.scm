; JavaScript's own patterns (with common.scm and jsx.scm).

(function_declaration name: (_) @function.name body: (_) @function.body) @function
(generator_function_declaration name: (_) @function.name body: (_) @function.body) @function
(function_expression name: (_)? @lambda.name body: (_) @lambda.body) @lambda
(generator_function name: (_)? @lambda.name body: (_) @lambda.body) @lambda
(arrow_function body: (_) @lambda.body) @lambda
(method_definition name: (_) @method.name body: (_) @method.body) @method

(class_declaration name: (_) @class.name body: (_) @class.body) @class
(class name: (_)? @class.name body: (_) @class.body) @class
(class_heritage (_) @extends)
(field_definition property: (_) @field.name value: (_)? @field.value) @field

(variable_declarator name: (_) @var.name value: (_)? @var.value) @var
(formal_parameters (identifier) @bind)
