// Package shareable decides which files may be shown to a model or copied
// into a run's output: none whose name says it holds a secret (.env,
// *.pem, id_rsa, credentials.json …), none holding a private key, and none
// that is binary. The shared documents a glob finds and the files of a
// shared repository follow the same policy.
package shareable

import (
	"bytes"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// headBytes is how much of a file Binary looks at for a NUL byte or text
// that is not UTF-8.
const headBytes = 8 << 10

// secretFiles are base names of files that hold credentials whatever else
// they hold.
var secretFiles = []string{
	".netrc", "_netrc", ".pgpass", ".htpasswd", ".git-credentials", ".npmrc", ".pypirc",
	".dockercfg", "credentials", "secring.gpg",
}

// secretPrefixes start the base names of environment files and private
// SSH keys.
var secretPrefixes = []string{".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}

// secretSuffixes end the names of key, certificate-store and password-vault
// files.
var secretSuffixes = []string{".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".tfstate", ".tfvars"}

// secretWords in the name of a data file (not of source code, which may
// well be about secrets) say that it holds some: secrets.yaml,
// client_secret.json, passwords.txt.
var secretWords = []string{"secret", "credential", "password", "passwd", "private_key", "private-key", "privatekey"}

// dataExts are the extensions of files that hold data rather than code.
var dataExts = []string{"", ".json", ".yaml", ".yml", ".toml", ".ini", ".conf", ".cfg", ".properties", ".xml", ".txt", ".env", ".csv"}

// SecretName reports whether a file's name (a path with / or \ between its
// folders) says that it holds a secret.
func SecretName(name string) bool {
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "/")))
	has := func(list []string, fn func(string, string) bool) bool {
		return slices.ContainsFunc(list, func(s string) bool { return fn(base, s) })
	}
	switch {
	case slices.Contains(secretFiles, base), has(secretPrefixes, strings.HasPrefix), has(secretSuffixes, strings.HasSuffix):
		return true
	case slices.Contains(dataExts, path.Ext(base)):
		return has(secretWords, strings.Contains)
	}
	return false
}

// privateKey matches the header of a PEM or OpenSSH private key.
var privateKey = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`)

// HoldsPrivateKey reports whether text holds a private key's header.
func HoldsPrivateKey(text []byte) bool { return privateKey.Match(text) }

// Binary reports whether a file whose content starts with b is binary: a
// NUL byte or text that is not UTF-8 in its first headBytes (a character
// cut at that end does not count).
func Binary(b []byte) bool {
	head := b[:min(len(b), headBytes)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == utf8.RuneError && n <= 1 {
			cut := len(b) > headBytes && !utf8.FullRune(head)
			return !cut
		}
		head = head[n:]
	}
	return false
}

// Check says why the content b may not be shared: "binary", "holds a
// private key", or "" when it may.
func Check(b []byte) string {
	switch {
	case Binary(b):
		return "binary"
	case HoldsPrivateKey(b):
		return "holds a private key"
	}
	return ""
}
