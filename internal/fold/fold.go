// Package fold finds ASCII text in any letter case inside text that may hold
// anything, with offsets into that text: the tag, fence and keyword searches
// that model answers and server messages need.
package fold

import "strings"

// Index returns the offset in s of the first occurrence of sub in any ASCII
// letter case, or -1. Unlike searching a lowercased copy of s, the offset is
// always one of s itself, whatever bytes s holds. sub is expected to be
// ASCII: no other text folds to it within the same number of bytes.
func Index(s, sub string) int {
	if sub == "" {
		return 0
	}
	first := sub[0] | 0x20
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i]|0x20 == first && strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// Contains reports whether s holds sub in any ASCII letter case.
func Contains(s, sub string) bool { return Index(s, sub) >= 0 }
