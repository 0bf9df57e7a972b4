(package_clause (package_identifier) @pkg.name) @pkg

(import_spec name: (_)? @import.name path: (_) @import.path) @import

(function_declaration
  name: (identifier) @func.name
  type_parameters: (_)? @func.tparams
  parameters: (parameter_list) @func.params
  result: (_)? @func.result
  body: (block)? @func.body) @func

(method_declaration
  receiver: (parameter_list) @method.recv
  name: (field_identifier) @method.name
  parameters: (parameter_list) @method.params
  result: (_)? @method.result
  body: (block)? @method.body) @method

(type_spec
  name: (type_identifier) @type.name
  type_parameters: (_)? @type.tparams
  type: (_) @type.type) @type

(type_alias name: (type_identifier) @alias.name type: (_) @alias.type) @alias

(field_declaration name: (field_identifier)* @field.name type: (_) @field.type) @field

(method_elem
  name: (field_identifier) @melem.name
  parameters: (parameter_list) @melem.params
  result: (_)? @melem.result) @melem

(interface_type (type_elem) @telem)

(const_spec name: (identifier)+ @const.name type: (_)? @const.type) @const

(var_spec name: (identifier)+ @var.name type: (_)? @var.type value: (expression_list)? @var.value) @var

(parameter_declaration name: (identifier)* @param.name type: (_) @param.type) @param

(variadic_parameter_declaration name: (identifier)? @vparam.name) @vparam

(short_var_declaration left: (expression_list) @sv.left right: (expression_list) @sv.right) @sv

(range_clause left: (expression_list) @range.left right: (_) @range.right) @range

(call_expression function: (_) @call.fn arguments: (argument_list) @call.args) @call

(func_literal) @funclit

(for_statement body: (block) @loop)

(if_statement consequence: (block) @cond)

(if_statement alternative: (_) @cond)

[(expression_case) (default_case) (type_case) (communication_case)] @cond


(struct_type) @structlit

(interface_type) @ifacelit

(func_literal parameters: (parameter_list) @funclit.params)


(type_switch_statement alias: (expression_list) @tsw.alias) @tsw

(receive_statement left: (expression_list) @recv.left) @recv

(type_conversion_expression type: (generic_type) @conv.fn) @conv

(composite_literal type: (_) @clit.type body: (literal_value) @clit.body) @clit

(type_identifier) @tid

(qualified_type) @tq
