package main

import (
	"errors"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/server/client"
)

// Exit codes are decided here and nowhere else: exitCode for the batch and
// server commands, exitForCode for the agent commands, whose failures all
// carry an error code (the server's, or INVALID_INPUT for a bad command line,
// UNREACHABLE, TIMEOUT, INTERRUPTED).

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
	case errors.As(err, new(usageError)), errors.As(err, &problems):
		return exitUsage
	}
	return exitFailed
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
