; The C++ part of the query, after query_c.scm.

(namespace_definition name: (_)? @ns.name body: (declaration_list) @ns.body) @ns
(class_specifier name: (_)? @class.name body: (field_declaration_list) @class.body) @class
(base_class_clause) @bases
(access_specifier) @access
(friend_declaration) @friend
(optional_parameter_declaration type: (_) @param.type declarator: (_)? @param.name) @param
(using_declaration) @using
(alias_declaration name: (_) @alias.name type: (_) @alias.type) @alias
(new_expression type: (_) @new.type arguments: (_)? @new.args) @new
(template_declaration parameters: (template_parameter_list [(type_parameter_declaration (type_identifier) @tparam.name) (optional_type_parameter_declaration name: (type_identifier) @tparam.name) (variadic_type_parameter_declaration (type_identifier) @tparam.name)])) @tparam
(for_range_loop type: (_) @range.type declarator: (_) @range.name right: (_) @range.value) @range
(lambda_expression) @scope
(catch_clause) @scope
(for_range_loop) @loop
(try_statement body: (_) @try)
(class_specifier name: (type_identifier) @spec.name) @spec
(class_specifier name: (template_type name: (type_identifier) @tdef) body: (_))
(alias_declaration name: (type_identifier) @tdef)
(new_expression type: [(type_identifier) @tdef (template_type name: (type_identifier) @tdef)
  (qualified_identifier name: [(type_identifier) @tdef (template_type name: (type_identifier) @tdef)
    (qualified_identifier name: [(type_identifier) @tdef (template_type name: (type_identifier) @tdef)])])])
(base_class_clause [(type_identifier) @tdef (template_type name: (type_identifier) @tdef)
  (qualified_identifier name: [(type_identifier) @tdef (template_type name: (type_identifier) @tdef)
    (qualified_identifier name: [(type_identifier) @tdef (template_type name: (type_identifier) @tdef)])])])
