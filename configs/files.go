package configs

// Size caps on the files a config names, so that a wrong path (a log, a
// device such as /dev/zero) fails at once instead of filling memory.
const (
	// MaxConfigBytes bounds the config file: 1 MiB.
	MaxConfigBytes = 1 << 20
	// MaxDocumentBytes bounds each shared-context file and motion document:
	// 8 MiB.
	MaxDocumentBytes = 8 << 20
)
