//go:build !linux

package s3test

import "os/exec"

// setDeathSignal does nothing here: only Linux can kill a child when its
// parent dies.
func setDeathSignal(*exec.Cmd) {}
