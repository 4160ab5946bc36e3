package shareable

import (
	"strings"
	"testing"
)

func TestSecretName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want bool
	}{
		{"docs/design.md", false},
		{".env", true},
		{"deploy/.env.production", true},
		{"certs/server.pem", true},
		{"tls.KEY", true},
		{"home/id_rsa.pub", true},
		{`ssh\id_ed25519`, true},
		{".aws/credentials", true},
		{".netrc", true},
		{"config/secrets.yaml", true},
		{"client_secret_1234.json", true},
		{"passwords.txt", true},
		{"internal/redact/secrets.go", false},
		{"docs/credentials.md", false},
		{"keys.go", false},
		{"infra/prod.tfstate", true},
	}
	for _, tt := range tests {
		if got := SecretName(tt.name); got != tt.want {
			t.Errorf("SecretName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", headBytes-1) + "é" // é cut in two by the head's end
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"text", "package main\n", ""},
		{"empty", "", ""},
		{"nul", "a\x00b", "binary"},
		{"latin-1", "caf\xe9 au lait", "binary"},
		{"cut at the end of the file", "caf\xc3", "binary"},
		{"character cut by the head's end", long, ""},
		{"invalid after the head", strings.Repeat("a", headBytes) + "\xff", ""},
		{"private key", "x\n-----BEGIN OPENSSH PRIVATE KEY-----\n", "holds a private key"},
		{"public key", "-----BEGIN PUBLIC KEY-----\n", ""},
	}
	for _, tt := range tests {
		if got := Check([]byte(tt.in)); got != tt.want {
			t.Errorf("%s: Check = %q, want %q", tt.name, got, tt.want)
		}
	}
}
