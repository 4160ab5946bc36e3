package main

// demoKey stands in for every unset variable of a --demo run. Keys are
// redacted from messages, so it must not occur in one by chance.
const demoKey = "no-key-needed-for-the-demo"

// demoGetenv returns the environment of a --demo run: a variable that is
// not set reads as demoKey, so that a config's "${DEBATE_API_KEY}" needs no
// key. Nothing leaves the process, whatever the value.
func demoGetenv(getenv func(string) (string, bool)) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if v, ok := getenv(name); ok {
			return v, true
		}
		return demoKey, true
	}
}
