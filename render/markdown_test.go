package render

import (
	"strings"
	"testing"
)

func TestEmbedText(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		level int
		want  string
	}{
		{"h1 under h4", "# Title\ntext", 4, "##### Title\ntext"},
		{"deeper headings capped at 6", "## A\n### B\n###### C", 4, "##### A\n###### B\n###### C"},
		{"first heading one below", "## Edits\nbody", 2, "### Edits\nbody"},
		{"no level skipped", "# A\n### B\n##### C\n## D", 2, "### A\n#### B\n##### C\n#### D"},
		{"back to an earlier level", "## a\n#### b\n## c", 2, "### a\n#### b\n### c"},
		{"starting deep", "### x\n# y\n## z", 3, "#### x\n#### y\n##### z"},
		{"h1 under h2", "# Title", 2, "### Title"},
		{"closing sequence kept", "# Title #", 3, "#### Title #"},
		{"empty heading", "#", 4, "#####"},
		{"hashtag is no heading", "#hashtag and #2", 4, "#hashtag and #2"},
		{"four spaces is no heading", "    # code", 4, "    # code"},
		{"heading in quote", "> # quoted", 4, "> ##### quoted"},
		{"inside backtick fence", "```sh\n# comment\n```\n# after", 4, "```sh\n# comment\n```\n##### after"},
		{"inside tilde fence", "~~~\n# comment\n```\n# still code\n~~~", 4, "~~~\n# comment\n```\n# still code\n~~~"},
		{"longer closing fence", "```\n# code\n`````\n# out", 4, "```\n# code\n`````\n##### out"},
		{"shorter fence does not close", "````\n```\n# code\n````", 4, "````\n```\n# code\n````"},
		{"unclosed fence closed", "text\n```go\n# code", 4, "text\n```go\n# code\n```"},
		{"unclosed long fence closed", "~~~~\ncode", 4, "~~~~\ncode\n~~~~"},
		{"backtick in info is no fence", "``` a`b\n# heading", 4, "``` a`b\n##### heading"},
		{"setext h1", "Big title\n=====\nbody", 4, "##### Big title\nbody"},
		{"setext h2 multi-line", "two\nlines\n---", 4, "##### two lines"},
		{"thematic break after blank", "para\n\n---\nmore", 4, "para\n\n---\nmore"},
		{"list then dashes is a break", "- item\n---", 4, "- item\n---"},
		{"para then list then dashes", "para\n- item\n---", 4, "para\n- item\n---"},
		{"unclosed script block", "<script>\nalert(1)", 4, "\\<script>\nalert(1)"},
		{"unclosed comment", "  <!-- note\nrest", 4, "  \\<!-- note\nrest"},
		{"pre block", "<PRE class=x>", 4, "\\<PRE class=x>"},
		{"inline html untouched", "a <b>bold</b> word", 4, "a <b>bold</b> word"},
		{"crlf and trailing blanks", "a\r\nb\r\n\r\n  \n", 4, "a\nb"},
		{"empty", "  \n ", 4, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := embedText(tt.text, tt.level); got != tt.want {
				t.Errorf("embedText(%q, %d)\n got %q\nwant %q", tt.text, tt.level, got, tt.want)
			}
		})
	}
}

func TestMayHoldHeading(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want bool
	}{
		{"prose", "An argument with its reasons. Another one.\n\nA second paragraph.", false},
		{"list and thematic break with spaces", "- item\n- - -\n* * *", false},
		{"equals inside a line", "a = b\nx == y", false},
		{"hash anywhere", "issue #2", true},
		{"setext h1", "Big title\n=====", true},
		{"setext h2 with trailing blanks", "title\n--- \t", true},
		{"setext in a block quote", "> a\n>---", true},
		{"setext in a list item", "- a\n  b\n  ===", true},
		{"tab before the underline", "1. a\n\t-", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := mayHoldHeading(tt.text); got != tt.want {
				t.Errorf("mayHoldHeading(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}

// BenchmarkEmbedText places a model's answer under a heading, as the topic
// report does for every answer: plain prose, and prose with headings.
func BenchmarkEmbedText(b *testing.B) {
	prose := "Position at root. " + strings.Repeat("An argument with its reasons. ", 30)
	for _, bb := range []struct{ name, text string }{
		{"prose", prose + "\n\n" + prose},
		{"headings", "# Claim\n\n" + prose + "\n\nReasons\n---\n\n" + prose},
	} {
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				embedText(bb.text, 4)
			}
		})
	}
}

func TestInlineText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", "plain words"},
		{"multi\nline\t text", "multi line text"},
		{"# starts like a heading", `\# starts like a heading`},
		{"- starts like a list", `\- starts like a list`},
		{"> quote", `\> quote`},
		{"1. ordered", `1\. ordered`},
		{"2) ordered", `2\) ordered`},
		{"ends with C#", `ends with C\#`},
		{"a | b", `a \| b`},
		{"<script>x</script>", `\<script>x\</script>`},
		{`trailing \`, `trailing \\`},
		{"*emphasis* and `code` stay", "*emphasis* and `code` stay"},
		{"* starts like a list", `\* starts like a list`},
		{"---", `\---`},
		{"_ _ _", `\_ _ _`},
		{"-1 degrees", "-1 degrees"},
	}
	for _, tt := range tests {
		if got := inlineText(tt.in); got != tt.want {
			t.Errorf("inlineText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestShorten(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 40, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"cut at a word boundary please", 20, "cut at a word…"},
		{"averyveryverylongwordwithoutanyspaces", 10, "averyvery…"},
		{"是否将消息队列从RabbitMQ迁移到Kafka", 8, "是否将消息队列…"},
		{"  spaces\n\tcollapse  ", 40, "spaces collapse"},
	}
	for _, tt := range tests {
		if got := shorten(tt.in, tt.n); got != tt.want {
			t.Errorf("shorten(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestFencedOutlastsBackticks(t *testing.T) {
	body := "a ``` b\n````\nc"
	got := fenced("text", body)
	if !strings.HasPrefix(got, "`````text\n") || !strings.HasSuffix(got, "\n`````\n") {
		t.Errorf("fenced = %q, want a five-backtick fence", got)
	}
}

func TestGroupDigitsAndCost(t *testing.T) {
	for in, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -4500: "-4,500"} {
		if got := Thousands(in); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[float64]string{0.5: "0.50", 0.8734: "0.8734", 12: "12.00", 0.12345: "0.1235"} {
		if got := formatCost(in); got != want {
			t.Errorf("formatCost(%v) = %q, want %q", in, got, want)
		}
	}
}
