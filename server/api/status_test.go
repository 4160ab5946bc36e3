package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/debatehq/debate/protocol"
)

func TestProblem(t *testing.T) {
	notAllowed := protocol.Errorf(protocol.CodeActionNotAllowed, "not your turn")
	tests := []struct {
		name         string
		err          error
		status       int
		code         string
		internal     bool
		allowedRoles bool
	}{
		{"protocol error", protocol.Errorf(protocol.CodeDebateNotFound, "debate x not found"), http.StatusNotFound, "DEBATE_NOT_FOUND", false, false},
		{"wrapped protocol error", fmt.Errorf("get debate: %w", notAllowed), http.StatusForbidden, "ACTION_NOT_ALLOWED", false, true},
		{"server-level code", protocol.Errorf(CodeHostNotAllowed, "host"), http.StatusForbidden, CodeHostNotAllowed, false, false},
		{"internal code", protocol.Errorf(protocol.CodeInternal, "disk full at /secret"), http.StatusInternalServerError, "INTERNAL_ERROR", true, false},
		{"unknown code", protocol.Errorf("SOMETHING_NEW", "disk full at /secret"), http.StatusInternalServerError, "INTERNAL_ERROR", true, false},
		{"plain error", errors.New("disk full at /secret"), http.StatusInternalServerError, "INTERNAL_ERROR", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body, internal := Problem(tt.err, "req-7")
			if status != tt.status || body.Code != tt.code || internal != tt.internal {
				t.Fatalf("Problem = %d %s internal=%v, want %d %s internal=%v", status, body.Code, internal, tt.status, tt.code, tt.internal)
			}
			if tt.internal {
				if strings.Contains(body.Message, "secret") || body.RequestID != "req-7" || !strings.Contains(body.Message, "req-7") {
					t.Errorf("internal body = %+v: want the request id and none of the error's text", body)
				}
			}
			if got := body.AllowedRoles != nil; got != tt.allowedRoles {
				t.Errorf("allowed_roles present = %v, want %v", got, tt.allowedRoles)
			}
		})
	}
}
