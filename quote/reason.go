package quote

import (
	"fmt"
	"strings"
)

// Reason says why a quote is unverified, as a code and its arguments, so
// that each report language can say it; String says it in English, the
// words a judge reads in the quote's marking. An Opener's error that is a
// Reason is the quote's reason as it is; any other error's text is said
// as it is (the code Text).
type Reason struct {
	Code ReasonCode
	Args []string
}

// ReasonCode names why a quote is unverified. The comment of each code
// lists its arguments in order.
type ReasonCode string

// Why a quote is unverified.
const (
	TooMany    ReasonCode = "quote-too-many"     // none: past an answer's first MaxQuotes
	Nested     ReasonCode = "quote-nested"       // none
	Empty      ReasonCode = "quote-empty"        // none
	TooLong    ReasonCode = "quote-too-long"     // the limit in characters
	NoName     ReasonCode = "quote-no-name"      // none: no document to look in without one
	NotFoundIn ReasonCode = "quote-not-found-in" // the document named
	NotFound   ReasonCode = "quote-not-found"    // none
	Ambiguous  ReasonCode = "quote-ambiguous"    // none
	NoDocument ReasonCode = "quote-no-document"  // the name
	Outside    ReasonCode = "quote-outside"      // the path as written
	SecretName ReasonCode = "quote-secret-name"  // the file
	Link       ReasonCode = "quote-link"         // the file
	Irregular  ReasonCode = "quote-irregular"    // the file
	TooLarge   ReasonCode = "quote-too-large"    // the file, the limit ("1.0 MiB")
	Deleted    ReasonCode = "quote-deleted"      // the file
	Unreadable ReasonCode = "quote-unreadable"   // the file, the system's words
	Changed    ReasonCode = "quote-changed"      // the file
	Binary     ReasonCode = "quote-binary"       // the file
	PrivateKey ReasonCode = "quote-private-key"  // the file
	Credential ReasonCode = "quote-credential"   // the file
	NoFile     ReasonCode = "quote-no-file"      // the file
	Folder     ReasonCode = "quote-folder"       // the file
	GitFolder  ReasonCode = "quote-git-folder"   // the file
	Ignored    ReasonCode = "quote-ignored"      // the file
	Created    ReasonCode = "quote-created"      // the file
	Text       ReasonCode = "text"               // words without a code, said as they are (tree.Text)
)

// Because returns the reason code with args, each written as fmt.Sprint
// writes it.
func Because(code ReasonCode, args ...any) Reason {
	r := Reason{Code: code}
	for _, a := range args {
		r.Args = append(r.Args, fmt.Sprint(a))
	}
	return r
}

// Arg returns argument i, "" when the reason has fewer.
func (r Reason) Arg(i int) string {
	if i < len(r.Args) {
		return r.Args[i]
	}
	return ""
}

// english says each code in English.
var english = map[ReasonCode]func(r Reason) string{
	TooMany:    func(Reason) string { return "too many quotes" },
	Nested:     func(Reason) string { return "a quote inside a quote" },
	Empty:      func(Reason) string { return "empty quote" },
	TooLong:    func(r Reason) string { return fmt.Sprintf("longer than %s characters", r.Arg(0)) },
	NoName:     func(Reason) string { return `names no file; write <quote doc="path">` },
	NotFoundIn: func(r Reason) string { return fmt.Sprintf("not found in %s", r.Arg(0)) },
	NotFound:   func(Reason) string { return "not found in any document" },
	Ambiguous:  func(Reason) string { return "found in more than one document; name one with doc=" },
	NoDocument: func(r Reason) string { return fmt.Sprintf("no document named %q", r.Arg(0)) },
	Outside: func(r Reason) string {
		return fmt.Sprintf("%q is not a path inside the repository; write it from the repository's top folder, as a/b.go", r.Arg(0))
	},
	SecretName: func(r Reason) string {
		return fmt.Sprintf("%s looks like it holds a secret and is never quoted", r.Arg(0))
	},
	Link:      func(r Reason) string { return fmt.Sprintf("%s is a symbolic link, which is not followed", r.Arg(0)) },
	Irregular: func(r Reason) string { return fmt.Sprintf("%s is not a regular file", r.Arg(0)) },
	TooLarge: func(r Reason) string {
		return fmt.Sprintf("%s is larger than %s, the limit for a quoted file", r.Arg(0), r.Arg(1))
	},
	Deleted:    func(r Reason) string { return fmt.Sprintf("%s was deleted since the run started", r.Arg(0)) },
	Unreadable: func(r Reason) string { return fmt.Sprintf("%s cannot be read: %s", r.Arg(0), r.Arg(1)) },
	Changed: func(r Reason) string {
		return fmt.Sprintf("%s changed since the run started; quotes are checked against the files as the run found them", r.Arg(0))
	},
	Binary:     func(r Reason) string { return fmt.Sprintf("%s is binary", r.Arg(0)) },
	PrivateKey: func(r Reason) string { return fmt.Sprintf("%s holds a private key and is never quoted", r.Arg(0)) },
	Credential: func(r Reason) string {
		return fmt.Sprintf("%s holds one of the run's credentials and is never quoted", r.Arg(0))
	},
	NoFile:    func(r Reason) string { return fmt.Sprintf("no file %s in the repository", r.Arg(0)) },
	Folder:    func(r Reason) string { return fmt.Sprintf("%s is a folder; quote one of its files", r.Arg(0)) },
	GitFolder: func(r Reason) string { return fmt.Sprintf("%s is inside git's own folder", r.Arg(0)) },
	Ignored: func(r Reason) string {
		return fmt.Sprintf("%s is ignored by git: only files git tracks or would track are quotable", r.Arg(0))
	},
	Created: func(r Reason) string { return fmt.Sprintf("%s was created since the run started", r.Arg(0)) },
	Text:    func(r Reason) string { return r.Arg(0) },
}

// String says the reason in English; "" for no reason (a verified quote).
func (r Reason) String() string {
	if say := english[r.Code]; say != nil {
		return say(r)
	}
	if len(r.Args) > 0 {
		return string(r.Code) + " (" + strings.Join(r.Args, ", ") + ")"
	}
	return string(r.Code)
}

// Error is the reason in English, so that an Opener can return it.
func (r Reason) Error() string { return r.String() }
