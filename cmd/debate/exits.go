package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/regular"
	"github.com/debatehq/debate/ops"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/server/client"
)

// Exit codes are decided here and nowhere else: e.exit turns the error a
// command returns into its message and its exit code, for every command.
// The agent commands answer in JSON and their failures all carry an error
// code (the server's, or INVALID_INPUT for a bad command line, UNREACHABLE,
// TIMEOUT, INTERRUPTED), which exitForCode maps to the exit code.

// usageError marks an error caused by the command line or the files it
// names: it is printed with a pointer to the command's help and exits with
// exitUsage (an agent command's with exitInvalid).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// budgetError is a run that --strict-budget refuses to start: exit 2, as
// for a config that cannot run, with the message saying what to change
// and no pointer to the usage (the flags were right).
type budgetError struct{ err error }

func (e budgetError) Error() string { return e.err.Error() }
func (e budgetError) Unwrap() error { return e.err }

// exitStatus ends a command whose outcome has been told already (a run
// whose failed topics its reports name): its exit code, and nothing more to
// print.
type exitStatus int

func (s exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// interruptedError is a command stopped by Ctrl-C; retry, when set, is the
// command that takes up an interrupted wait again.
type interruptedError struct {
	err   error
	retry string
}

func (e interruptedError) Error() string { return e.err.Error() }
func (e interruptedError) Unwrap() error { return e.err }

// missingInput returns err as a usage error when it is a file or folder the
// command line names that does not exist or is not a file to read (a
// device, a FIFO, a symbolic link where none is followed, or too large),
// so that every command that reads one (run, validate, merge…) exits the
// same way for it; other errors are returned as they are.
func missingInput(err error) error {
	if errors.As(err, new(usageError)) {
		return err
	}
	for _, target := range []error{fs.ErrNotExist, regular.ErrNotRegular, regular.ErrTooLarge, regular.ErrSymlink} {
		if errors.Is(err, target) {
			return usageError{err}
		}
	}
	return err
}

// exit prints err as c prints its failures and returns its exit code: the
// one place an error becomes a message and a code.
func (e *env) exit(c *command, err error) int {
	if err == nil {
		return exitOK
	}
	if c.agent {
		return e.agentFailure(c.name, err)
	}
	var (
		problems configs.Problems
		status   exitStatus
	)
	switch {
	case errors.As(err, &status):
		return int(status)
	case errors.As(err, new(interruptedError)):
		return exitInterrupted
	case errors.As(err, &problems):
		fmt.Fprintln(e.stderr, err)
		if err := e.gh.Problems(problems); err != nil {
			fmt.Fprintf(e.stderr, "warning: could not tell GitHub Actions the problems (%v)\n", err)
		}
	case errors.As(err, new(usageError)):
		fmt.Fprintf(e.stderr, "debate %s: %v\nRun \"debate help %s\" for usage.\n", c.name, err, c.name)
	default:
		fmt.Fprintf(e.stderr, "debate %s: %v\n", c.name, err)
	}
	return exitCode(err)
}

// exitCode maps an error of a batch or server command to its exit code.
func exitCode(err error) int {
	var (
		ce       *client.Error
		problems configs.Problems
	)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ce):
		return exitForCode(ce.Code)
	case errors.As(err, new(usageError)), errors.As(err, &problems), errors.As(err, new(budgetError)):
		return exitUsage
	}
	return exitFailed
}

// agentFailure prints err as the JSON failure of the agent command name
// and returns its exit code.
func (e *env) agentFailure(name string, err error) int {
	var (
		b  ops.FailureBody
		ie interruptedError
	)
	err = flagError(err)
	switch {
	case errors.As(err, &ie):
		b.Code, b.Message = codeInterrupted, "interrupted"
		if ie.retry != "" {
			b.Suggestion = "run " + ie.retry + " to wait again"
		}
	case errors.As(err, new(usageError)):
		b.Code, b.Message = string(protocol.CodeInvalidInput), err.Error()
		b.Suggestion = fmt.Sprintf("run \"debate %s --help\" for usage", name)
	default:
		b = ops.Failure(err)
	}
	code := exitForCode(b.Code)
	e.printJSON(errorOut{Error: b, ExitCode: code})
	return code
}

// exitForCode maps an error code of the server or the client to the agent
// commands' exit code.
func exitForCode(code string) int {
	switch code {
	case string(protocol.CodeDebateNotFound), string(protocol.CodeArgumentNotFound),
		string(protocol.CodeDocumentNotFound), api.CodeRouteNotFound:
		return exitNotFound
	case string(protocol.CodeInvalidInput), string(protocol.CodeContentTooLarge):
		return exitInvalid
	case string(protocol.CodeActionNotAllowed):
		return exitNotAllowed
	case string(protocol.CodeAuthFailed):
		return exitAuth
	case client.CodeUnreachable:
		return exitUnreachable
	case client.CodeTimeout:
		return exitTimeout
	case codeInterrupted:
		return exitInterrupted
	}
	return exitFailed
}
