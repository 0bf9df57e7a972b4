; JSX, for the javascript and tsx grammars: an element naming a component.

(jsx_opening_element name: (_) @jsx)
(jsx_self_closing_element name: (_) @jsx)
