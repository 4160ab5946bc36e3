package output

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/debatehq/debate/tree"
)

// maxSlug is the longest slug Slug returns.
const maxSlug = 50

// transliterations maps lowercase Latin letters with diacritics to ASCII.
var transliterations = func() map[rune]string {
	groups := map[string]string{
		"a": "àáâãäåāăąạảấầẩẫậắằẳẵặǎ", "c": "çćĉċč", "d": "ďđð",
		"e": "èéêëēĕėęěẹẻẽếềểễệ", "g": "ĝğġģ", "h": "ĥħ",
		"i": "ìíîïĩīĭįıỉịǐ", "j": "ĵ", "k": "ķ", "l": "ĺļľŀł", "n": "ñńņňŉ",
		"o": "òóôõöøōŏőơọỏốồổỗộớờởỡợǒ", "r": "ŕŗř", "s": "śŝşšș", "t": "ţťŧț",
		"u": "ùúûüũūŭůűųưụủứừửữựǔ", "w": "ŵ", "y": "ýÿŷỳỵỷỹ", "z": "źżž",
		"ss": "ß", "ae": "æ", "oe": "œ", "th": "þ",
	}
	m := map[rune]string{}
	for ascii, letters := range groups {
		for _, r := range letters {
			m[r] = ascii
		}
	}
	return m
}()

// windowsReserved are the file names Windows refuses whatever the extension.
var windowsReserved = map[string]bool{
	"con": true, "prn": true, "aux": true, "nul": true,
	"com1": true, "com2": true, "com3": true, "com4": true, "com5": true, "com6": true, "com7": true, "com8": true, "com9": true,
	"lpt1": true, "lpt2": true, "lpt3": true, "lpt4": true, "lpt5": true, "lpt6": true, "lpt7": true, "lpt8": true, "lpt9": true,
}

// Slug returns a file-name-safe form of a title, the same on every OS: lowercase
// ASCII letters and digits joined by single hyphens, Latin letters with
// diacritics transliterated and other characters dropped, at most 50 bytes cut
// at a hyphen when one is near. A title that leaves nothing gets a short hash
// of itself; a Windows reserved name gets "-topic" appended.
func Slug(title string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(title) {
		var s string
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			s = string(r)
		default:
			s = transliterations[r]
		}
		if s == "" {
			gap = true
			continue
		}
		if gap && b.Len() > 0 {
			b.WriteByte('-')
		}
		gap = false
		b.WriteString(s)
	}
	slug := b.String()
	if len(slug) > maxSlug {
		cut := slug[:maxSlug]
		if slug[maxSlug] != '-' {
			if i := strings.LastIndexByte(cut, '-'); i >= maxSlug/2 {
				cut = cut[:i]
			}
		}
		slug = strings.TrimRight(cut, "-")
	}
	if slug == "" {
		sum := sha256.Sum256([]byte(title))
		return hex.EncodeToString(sum[:4])
	}
	if windowsReserved[slug] {
		slug += "-topic"
	}
	return slug
}

// TopicFile returns the report file name of a topic: "topic-<id>-<slug>.md".
// Characters of the id other than ASCII letters, digits, '.', '_' and '-'
// become '-'.
func TopicFile(t *tree.Topic) string {
	return "topic-" + safeID(t.ID) + "-" + Slug(t.Title) + ".md"
}

// safeID keeps the id's ASCII letters, digits, '.', '_' and '-' and turns any
// other character into '-'.
func safeID(id string) string {
	id = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '-'
	}, id)
	if id == "" {
		return "x"
	}
	return id
}
