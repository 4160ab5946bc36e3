// Package modelfamily tells which family a model belongs to — whose
// training it shares — from its name as configured.
package modelfamily

import (
	"regexp"
	"strings"
)

// byName maps the start of a model's own name to its family.
var byName = []struct {
	re     *regexp.Regexp
	family string
}{
	{regexp.MustCompile(`^(gpt|chatgpt|o[1-9](-|$)|text-davinci|davinci)`), "openai"},
	{regexp.MustCompile(`^claude`), "anthropic"},
	{regexp.MustCompile(`^(gemini|gemma|palm)`), "google"},
	{regexp.MustCompile(`^(llama|meta-llama|codellama)`), "meta"},
	{regexp.MustCompile(`^(qwen|qwq)`), "qwen"},
	{regexp.MustCompile(`^deepseek`), "deepseek"},
	{regexp.MustCompile(`^(mistral|magistral|codestral|ministral|mixtral|devstral|pixtral)`), "mistral"},
	{regexp.MustCompile(`^grok`), "xai"},
	{regexp.MustCompile(`^(glm|chatglm)`), "zhipu"},
	{regexp.MustCompile(`^(kimi|moonshot)`), "moonshot"},
	{regexp.MustCompile(`^(command|aya)`), "cohere"},
	{regexp.MustCompile(`^(phi)-?\d`), "microsoft"},
}

// byVendor maps a provider prefix ("openai/…") to its family.
var byVendor = map[string]string{
	"openai": "openai", "anthropic": "anthropic", "google": "google", "meta-llama": "meta", "meta": "meta",
	"qwen": "qwen", "deepseek": "deepseek", "deepseek-ai": "deepseek", "mistralai": "mistral", "mistral": "mistral",
	"x-ai": "xai", "xai": "xai", "z-ai": "zhipu", "zhipuai": "zhipu", "thudm": "zhipu", "moonshotai": "moonshot",
	"cohere": "cohere", "microsoft": "microsoft",
}

// Of returns the family of model: by the name's own start (gpt…, claude…,
// gemini…), else by its provider prefix (vendor/…); "" when neither tells.
// Case is ignored.
func Of(model string) string {
	m := strings.ToLower(strings.TrimSpace(model))
	if m == "" {
		return ""
	}
	vendor, name := "", m
	if i := strings.LastIndex(m, "/"); i >= 0 {
		vendor, name = m[:i], m[i+1:]
		if j := strings.LastIndex(vendor, "/"); j >= 0 {
			vendor = vendor[j+1:]
		}
	}
	for _, f := range byName {
		if f.re.MatchString(name) {
			return f.family
		}
	}
	if f, ok := byVendor[vendor]; ok {
		return f
	}
	return vendor
}
