package rendertest

import (
	"regexp"
	"strings"
)

// XSS is Markdown that tries every way model or agent text could run script
// on a page: a script element, an image with an event handler, a
// javascript: link in Markdown and in raw HTML. Its last line, **bold**,
// must still render as Markdown. Every page that shows such text (the web
// UI's and the reports') is checked against it with ActiveContent.
const XSS = "Hello <script>alert('s')</script>\n\n<img src=x onerror=\"alert('i')\">\n\n" +
	"[link](javascript:alert('j'))\n\n<a href=\"javascript:alert('a')\">raw</a>\n\n**bold**"

// XSSTitle is a title, a name or an id that tries to run script.
const XSSTitle = `<script>alert("title")</script>`

// eventAttr finds an event handler attribute inside a tag.
var eventAttr = regexp.MustCompile(`<[a-z][^>]*\son[a-z]+=`)

// ActiveContent returns what in an HTML page or fragment could run script or
// load something: a script or img element, a javascript: link, an event
// handler attribute in a tag. A page free of it returns nil.
func ActiveContent(page string) []string {
	low := strings.ToLower(page)
	var found []string
	for _, bad := range []string{"<script", "<img", `href="javascript:`} {
		if strings.Contains(low, bad) {
			found = append(found, "contains "+bad)
		}
	}
	if m := eventAttr.FindString(low); m != "" {
		found = append(found, "has an event handler in a tag: "+m)
	}
	return found
}
