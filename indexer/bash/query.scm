; The one query of the Bash extractor. Every pattern has a main capture named
; after the item kind and, optionally, role captures "<kind>.<role>".

(function_definition name: (word) @func.name body: (_) @func.body) @func
(program (variable_assignment name: (variable_name) @var.name) @var)
(program (declaration_command (variable_assignment name: (variable_name) @decl.name)) @decl)
(command name: (command_name (word) @cmd.name) . argument: (_)? @cmd.arg) @cmd
(comment) @doc

; Regions.
[(for_statement) (c_style_for_statement) (while_statement)] @loop
(if_statement) @cond
(case_item) @cond
(list (_) @cond .)
