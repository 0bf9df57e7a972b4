// Command snap indexes a repository into a code-graph snapshot, verifies
// snapshots, and answers questions about them from the shell or as an MCP
// server. Flags are parsed here; the work is done by the library packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
)

// stopGrace is how long a command may take to stop after the first
// SIGINT or SIGTERM before the process exits anyway.
const stopGrace = 500 * time.Millisecond

func main() {
	// The first SIGINT or SIGTERM cancels ctx, which stops the command
	// (an index stops its parses in C, publishing nothing); the next kills
	// the process at once, as if snap did not catch signals at all. Work
	// that does not look at ctx (a resolver's pass, a table's encoding)
	// is not waited for past stopGrace: snap writes every file by rename
	// and moves HEAD last, so an exit at any point leaves what a SIGKILL
	// would, nothing half-published.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, func() {
		stop()
		time.AfterFunc(stopGrace, func() {
			fmt.Fprintln(os.Stderr, "snap: stopped by a signal")
			os.Exit(1)
		})
	})
	code := Run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// newLog is the logger every command logs with: text lines on w, from
// level info.
func newLog(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// usageError is a mistake in how snap was called: exit code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// Run runs snap with args and returns the exit code: 0 for success, 1 for
// failure, 2 for a usage error.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	log := newLog(stderr)
	app := &cli.Command{
		Name:    "snap",
		Usage:   "code-graph snapshots for AI coding agents",
		Version: versionLine(),
		Description: "snap indexes a repository into a verified, immutable code-graph snapshot\n" +
			"(Parquet tables and a manifest) and answers structural questions about it:\n" +
			"from the shell (snap query) or as an MCP server (snap serve).",
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		Commands: []*cli.Command{
			indexCommand(log),
			verifyCommand(),
			queryCommand(),
			sqlCommand(),
			serveCommand(),
			pushCommand(log),
			pullCommand(),
			lsCommand(),
			gcCommand(),
			doctorCommand(),
			diffCommand(),
			ciCommand(log),
			exportCommand(),
			setupCommand(),
			versionCommand(),
		},
		EnableShellCompletion:           true,
		ConfigureShellCompletionCommand: configureCompletion,
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usagef("unknown command %q (snap --help lists them)", c.Args().First())
			}
			return cli.ShowRootCommandHelp(c)
		},
		OnUsageError: func(ctx context.Context, c *cli.Command, err error, isSubcommand bool) error {
			return usageError{err}
		},
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = app.OnUsageError
	}
	err := app.Run(ctx, args)
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "snap: %v\n", err)
	var ue usageError
	var ce ci.ConfigError
	if errors.As(err, &ue) || errors.As(err, &ce) {
		return 2
	}
	return 1
}

// exactArgs checks the number of positional arguments.
func exactArgs(c *cli.Command, min, max int) error {
	n := c.Args().Len()
	if n < min || n > max {
		if min == max {
			return usagef("%s takes %d argument(s), got %d (see snap %s --help)", c.Name, min, n, c.Name)
		}
		return usagef("%s takes %d to %d arguments, got %d (see snap %s --help)", c.Name, min, max, n, c.Name)
	}
	return nil
}
