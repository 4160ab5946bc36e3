package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
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

func versionCmd(e *env, args []string) int {
	fs := flagSet("version")
	help := func() string {
		return helpText(fs, "debate version", "Print the version of debate, the commit it was built from and the Go version.", "", "")
	}
	if done, code := parse(e, fs, args, help); done {
		return code
	}
	fmt.Fprintln(e.stdout, versionString())
	return exitOK
}
