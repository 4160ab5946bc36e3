package redact

import (
	"slices"
	"testing"
)

func TestURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"https://api.openai.com/v1", "https://api.openai.com/v1"},
		{"http://user:PASSWORD@host/v1?token=SECRET", "http://REDACTED@host/v1?token=REDACTED"},
		{"http://TOKEN@host:8080/v1", "http://REDACTED@host:8080/v1"},
		{"https://host/v1?key=SECRET&api-version=2024-06-01&flag", "https://host/v1?key=REDACTED&api-version=2024-06-01&flag"},
		{"https://host/v1?X-Amz-Signature=SECRET&access%5Ftoken=SECRET", "https://host/v1?X-Amz-Signature=REDACTED&access%5Ftoken=REDACTED"},
		{"https://host/v1#SECRET", "https://host/v1#REDACTED"},
		{"postgres://app:PASSWORD@db:5432/debate?sslmode=disable", "postgres://REDACTED@db:5432/debate?sslmode=disable"},
		{"postgres://app@db/debate?password=SECRET", "postgres://REDACTED@db/debate?password=REDACTED"},
		{"http://127.0.0.1:3456", "http://127.0.0.1:3456"},
		{"http://user:PASS WORD@host\x7f/v1", Unparsable},
		{"postgres://app:PASS%zz@db/debate", Unparsable},
		{"http://a:PASSWORD@[::1/", Unparsable},
		{"app:PASSWORD@db/debate", Unparsable},
		{"debate.db", "debate.db"},
		{"/home/me/.local/share/debate/debate.db", "/home/me/.local/share/debate/debate.db"},
		{"/tmp/odd%zz.db", "/tmp/odd%zz.db"},
		{"file:debate.db?_pragma=busy_timeout(5000)", "file:debate.db?_pragma=busy_timeout(5000)"},
	} {
		if got := URL(tc.in); got != tc.want {
			t.Errorf("URL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestURLSecrets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"https://api.openai.com/v1?api-version=1", nil},
		{"http://user:PASSWORD@host/v1?token=SECRET&api-version=1", []string{"PASSWORD", "SECRET"}},
		{"http://TOKEN@host/v1", []string{"TOKEN"}},
		{"postgres://app:PASS%zz@db/debate", nil},
	} {
		if got := URLSecrets(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("URLSecrets(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSecretName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		secret bool
	}{
		{"Authorization", true},
		{"x-api-key", true},
		{"X-Auth-Token", true},
		{"Cookie", true},
		{"sig", true},
		{"password", true},
		{"Content-Type", false},
		{"api-version", false},
		{"sslmode", false},
		{"HTTP-Referer", false},
	} {
		if got := SecretName(tc.name); got != tc.secret {
			t.Errorf("SecretName(%q) = %v, want %v", tc.name, got, tc.secret)
		}
	}
}
