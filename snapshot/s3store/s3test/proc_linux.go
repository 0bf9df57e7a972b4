package s3test

import (
	"os/exec"
	"syscall"
)

// setDeathSignal has the kernel kill the server if the test process dies
// without stopping it (a panic, a -timeout), so none is left running.
func setDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
