package indexer

import "maps"

// The role slots (see Match.Role) of the roles that most languages'
// queries capture and that mean the same in each: a capture "kind.name"
// fills RoleName, "kind.type" RoleType, and so on (see Roles). A language
// numbers roles of its own from NumSharedRoles.
const (
	RoleName   = iota // the name a declaration declares or a use names
	RoleType          // a declared type, or the type a use names
	RoleBody          // a declaration's body
	RoleParams        // a function's parameter list
	RoleValue         // an initializer, or the operand of an expression
	RoleArgs          // a call's argument list
	RoleObject        // the receiver of a call or of a field access
	NumSharedRoles
)

// Roles returns the role slots by capture name that CompileQuery takes:
// the shared roles, and own, a language's own roles (numbered from
// NumSharedRoles).
func Roles(own map[string]int) map[string]int {
	roles := map[string]int{
		"name": RoleName, "type": RoleType, "body": RoleBody, "params": RoleParams,
		"value": RoleValue, "args": RoleArgs, "object": RoleObject,
	}
	maps.Copy(roles, own)
	return roles
}
