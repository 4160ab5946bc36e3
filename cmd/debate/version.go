package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/pflag"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3"; without
// it the module version or VCS revision from the build info is shown.
var version = ""

func versionString() string {
	v, rev, dirty := version, "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if v == "" {
		v = "devel"
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " (" + rev
		if dirty {
			v += ", modified"
		}
		v += ")"
	}
	return fmt.Sprintf("debate %s %s/%s %s", v, runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// versionOptions are the (no) flags of "debate version".
type versionOptions struct{ noArgs }

func versionCommand() *command {
	return &command{
		name: "version", summary: "print the version",
		help: help{
			about: "Print the version of debate, the commit it was built from and the Go version.",
			usage: "  debate version\n",
			exits: "  0  the version was printed\n",
		},
		options: func() options { return &versionOptions{} },
	}
}

func (o *versionOptions) flags(*pflag.FlagSet) {}

func (o *versionOptions) run(e *env) error {
	_, err := fmt.Fprintln(e.stdout, versionString())
	return err
}
