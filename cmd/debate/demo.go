package main

import "github.com/debatehq/debate/ops"

// demoGetenv returns the environment of a --demo run, as a demo started
// over MCP gets it: a variable that is not set reads as a placeholder key,
// so that a config's "${DEBATE_API_KEY}" needs no key.
var demoGetenv = ops.DemoEnv
