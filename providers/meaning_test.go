package providers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/debatehq/debate/providers/scripted"
)

// wording is one way a provider says what went wrong, and where that
// wording comes from: the provider's documentation, or an error a user or
// another project recorded from it.
type wording struct {
	provider string
	status   int
	body     string
	class    Class
	source   string
}

// wordings are the rows of the table of meanings in docs/PROVIDERS.md: one
// per wording, each class in the words of at least two providers.
var wordings = []wording{
	// The key.
	{"OpenAI", 401, `{"error":{"message":"Incorrect API key provided: sk-fake. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
		ClassKeyRefused, "https://platform.openai.com/docs/guides/error-codes"},
	{"Google Gemini", 400, `[{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}]`,
		ClassKeyRefused, "https://github.com/continuedev/continue/issues/10290"},
	{"OpenRouter", 401, `{"error":{"message":"No cookie auth credentials found","code":401}}`,
		ClassKeyRefused, "https://openrouter.ai/docs/api/reference/errors-and-debugging"},
	{"Anthropic", 401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`,
		ClassKeyRefused, "https://docs.claude.com/en/api/errors"},
	{"DeepSeek", 401, `{"error":{"message":"Authentication Fails, Your api key: ****abcd is invalid","type":"authentication_error","param":null,"code":"invalid_request_error"}}`,
		ClassKeyRefused, "https://api-docs.deepseek.com/quick_start/error_codes"},

	{"Cloudflare Workers AI", 403, `{"result":null,"success":false,"errors":[{"code":10000,"message":"Authentication error"}],"messages":[]}`,
		ClassKeyRefused, "https://github.com/opencodeschool/opencode.school/issues/174"},

	// The model, or this key's right to it.
	{"OpenAI", 404, `{"error":{"message":"The model ` + "`gpt-9`" + ` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`,
		ClassModelUnavailable, "https://platform.openai.com/docs/guides/error-codes"},
	{"Azure OpenAI", 404, `{"error":{"type":"invalid_request_error","code":"DeploymentNotFound","message":"The API deployment for this resource does not exist."}}`,
		ClassModelUnavailable, "https://learn.microsoft.com/en-us/azure/ai-services/openai/reference"},
	{"Ollama", 404, `{"error":{"message":"model \"llama3\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`,
		ClassModelUnavailable, "https://github.com/netease-youdao/QAnything/issues/555"},
	{"vLLM", 404, `{"object":"error","message":"The model ` + "`llama-3-70b`" + ` does not exist.","type":"NotFoundError","param":null,"code":404}`,
		ClassModelUnavailable, "https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/serving_engine.py"},
	{"Mistral", 400, `{"object":"error","message":"Invalid model: mistral-medium-3.5","type":"invalid_model","param":null,"code":"1500"}`,
		ClassModelUnavailable, "https://github.com/mistralai/mistral-vibe/issues/617"},
	{"LiteLLM", 400, `{"error":{"message":"key not allowed to access model. This key can only access models=['gpt-4o-mini']. Tried to access gpt-5","type":"key_model_access_denied","param":"model","code":"400"}}`,
		ClassModelUnavailable, "https://github.com/BerriAI/litellm/pull/41852"},
	{"LiteLLM", 401, `{"error":{"message":"team not allowed to access model. This team can only access models=['openai/gpt-4o']","type":"team_model_access_denied","param":"model","code":"401"}}`,
		ClassModelUnavailable, "https://github.com/BerriAI/litellm/issues/1460"},
	{"LiteLLM", 403, `{"error":{"message":"The requested model 'denied-model' is not available for this API key","type":"key_model_access_denied","param":"model","code":"403"}}`,
		ClassModelUnavailable, "https://github.com/BerriAI/litellm/pull/41852"},

	{"Cloudflare Workers AI", 403, `{"result":null,"success":false,"errors":[{"code":5018,"message":"The account is not allowed to access this model"}],"messages":[]}`,
		ClassModelUnavailable, "https://github.com/cloudflare/cloudflare-docs/pull/19677"},

	// The prompt does not fit the model.
	{"OpenAI", 400, `{"error":{"message":"This model's maximum context length is 4097 tokens. However, your messages resulted in 7575 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
		ClassPromptTooLong, "https://github.com/smol-ai/developer/issues/7"},
	{"Perplexity", 400, `{"error":{"message":"The total length of all messages is too long.","type":"too_many_prompt_tokens","code":400}}`,
		ClassPromptTooLong, "https://github.com/symfony/ai src/platform/src/Bridge/Perplexity/Tests"},
	{"Google Gemini", 400, `[{"error":{"code":400,"message":"The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}]`,
		ClassPromptTooLong, "https://github.com/google-gemini/gemini-cli/issues/6678"},
	{"xAI", 400, `{"code":"Client specified an invalid argument","error":"This model's maximum prompt length is 131072 but the request contains 136973 tokens."}`,
		ClassPromptTooLong, "https://github.com/cline/cline/issues/3120"},
	{"SiliconFlow-style gateway", 400, `{"code":20015,"message":"length of prompt_tokens (163280) must be less than max_seq_len (32768).","data":null}`,
		ClassPromptTooLong, "https://github.com/sjzar/chatlog/issues/30"},

	{"vLLM", 400, `{"object":"error","message":"The prompt (total length 25938) is too long to fit into the model (context length 4096). Make sure that ` + "`max_model_len`" + ` is no smaller than the number of text tokens.","type":"BadRequestError","param":null,"code":400}`,
		ClassPromptTooLong, "https://github.com/vllm-project/vllm/issues/12165"},
	{"vLLM", 400, `{"object":"error","message":"Input prompt (35247 tokens) is too long and exceeds limit of 1000","type":"BadRequestError","param":null,"code":400}`,
		ClassPromptTooLong, "https://github.com/vllm-project/vllm/issues/10440"},

	// The request, whatever the model: larger than the endpoint ever takes.
	{"a Rust (axum) server", 413, `Failed to buffer the request body: length limit exceeded`,
		ClassRequestTooLarge, "https://docs.rs/axum/latest/axum/extract/struct.DefaultBodyLimit.html"},
	{"Anthropic", 413, `{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}`,
		ClassRequestTooLarge, "https://docs.claude.com/en/api/errors"},
	{"OpenAI", 429, `{"error":{"message":"Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 38324. The input or output tokens must be reduced in order to run successfully.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`,
		ClassRequestTooLarge, "https://platform.openai.com/docs/guides/rate-limits"},
	{"Groq", 413, `{"error":{"message":"Request too large for model ` + "`llama-3.3-70b-versatile`" + ` in organization ` + "`org_x`" + ` service tier ` + "`on_demand`" + ` on tokens per minute (TPM): Limit 6000, Requested 10338, please reduce your message size and try again.","type":"tokens","code":"rate_limit_exceeded"}}`,
		ClassRequestTooLarge, "https://github.com/cottongeeks/podscript/issues/20"},
	{"nginx", 413, "<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>",
		ClassRequestTooLarge, "https://nginx.org/en/docs/http/ngx_http_core_module.html#client_max_body_size"},

	// The account's money.
	{"OpenAI", 429, `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`,
		ClassQuotaExhausted, "https://platform.openai.com/docs/guides/error-codes"},
	{"OpenAI", 429, `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"credit_balance_exhausted"}}`,
		ClassQuotaExhausted, "https://learn.microsoft.com/en-us/microsoft-cloud/dev/dev-proxy/concepts/openai-insufficient-quota"},
	{"DeepSeek", 402, `{"error":{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}}`,
		ClassQuotaExhausted, "https://api-docs.deepseek.com/quick_start/error_codes"},
	{"Anthropic", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."}}`,
		ClassQuotaExhausted, "https://github.com/anthropics/claude-quickstarts/issues/229"},
	{"OpenRouter", 402, `{"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 1234.","code":402}}`,
		ClassQuotaExhausted, "https://github.com/can1357/oh-my-pi/issues/9569"},

	// Too many requests for now.
	{"OpenAI", 429, `{"error":{"message":"Rate limit reached for gpt-4 in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
		ClassRateLimited, "https://platform.openai.com/docs/guides/rate-limits"},
	{"Google Gemini", 429, `{"error":{"code":429,"message":"Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.","status":"RESOURCE_EXHAUSTED"}}`,
		ClassRateLimited, "https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429"},
	{"Google Gemini", 429, `{"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details. Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 2, model: gemini-2.5-pro. Please retry in 43.9s.","status":"RESOURCE_EXHAUSTED"}}`,
		ClassRateLimited, "https://ai.google.dev/gemini-api/docs/rate-limits"},
	{"OpenRouter", 429, `{"error":{"code":429,"message":"Provider returned error","metadata":{"provider_name":"Google","raw":"google/gemini-2.0-flash-exp:free is temporarily rate-limited upstream. Please retry shortly."}}}`,
		ClassRateLimited, "https://openrouter.ai/docs/api/reference/errors-and-debugging"},
	{"Anthropic", 429, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`,
		ClassRateLimited, "https://docs.claude.com/en/api/errors"},

	// The server, or a gateway in front of it.
	{"Anthropic", 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
		ClassServerError, "https://docs.claude.com/en/api/errors"},
	{"DeepSeek", 503, `{"error":{"message":"Server Overloaded","type":"service_unavailable"}}`,
		ClassServerError, "https://api-docs.deepseek.com/quick_start/error_codes"},
	{"Cloudflare", 502, cloudflarePage("502: Bad gateway"),
		ClassServerError, "https://developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-5xx-errors/"},
	{"Cloudflare AI Gateway", 502, `{"result":null,"success":false,"errors":[{"code":7009,"message":"Upstream service unavailable"}],"messages":[]}`,
		ClassServerError, "https://github.com/cloudflare/cloudflare-docs/issues/15116"},
	{"nginx", 504, "<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>",
		ClassServerError, "https://nginx.org/en/docs/http/ngx_http_proxy_module.html"},

	// The request as sent.
	{"Groq", 400, `{"error":{"code":"tool_use_failed","message":"Tool call validation failed: parameters for tool get_something did not match schema","type":"invalid_request_error"}}`,
		ClassBadRequest, "https://console.groq.com/docs/errors"},
	{"DeepSeek", 422, `{"error":{"message":"Invalid Parameters","type":"invalid_request_error"}}`,
		ClassBadRequest, "https://api-docs.deepseek.com/quick_start/error_codes"},

	// The content.
	{"Azure OpenAI", 400, `{"error":{"message":"The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry.","type":"invalid_request_error","code":"content_filter","innererror":{"code":"ResponsibleAIPolicyViolation"}}}`,
		ClassContentRefused, "https://github.com/openai/openai-agents-python/issues/806"},
	{"OpenRouter", 403, `{"error":{"code":403,"message":"Your chosen model requires moderation and your input was flagged","metadata":{"reasons":["violence"]}}}`,
		ClassContentRefused, "https://openrouter.ai/docs/api/reference/errors-and-debugging"},
}

// cloudflarePage is an error page in the shape Cloudflare documents for
// its 5xx errors.
func cloudflarePage(title string) string {
	return `<!DOCTYPE html><html lang="en-US"><head><title>api.example.com | ` + title + `</title>` +
		`<meta charset="UTF-8" /><link rel="stylesheet" id="cf_styles-css" href="/cdn-cgi/styles/main.css" /></head>` +
		`<body><div id="cf-error-details"><h1>` + title + `</h1><p>Cloudflare Ray ID: 8a1b2c3d4e5f</p></div></body></html>`
}

// TestMeanings: every wording of the table means its class, whatever the
// provider's status, codes or words, and the class's consequence follows:
// no retry and the fallback at once for what waiting never mends.
func TestMeanings(t *testing.T) {
	t.Parallel()
	for _, w := range wordings {
		t.Run(w.provider+" "+w.class.String(), func(t *testing.T) {
			t.Parallel()
			if !strings.HasPrefix(w.source, "https://") {
				t.Errorf("the wording cites no source: %q", w.source)
			}
			e := Classify(status(w.status, w.body))
			if e.Class != w.class {
				t.Errorf("%d %s\nis %s, want %s", w.status, w.body, e.Class, w.class)
			}
		})
	}
}

// TestMeaningsAcrossProviders: each class is told by the words of at least
// two providers, so that no rule follows one provider's wording.
func TestMeaningsAcrossProviders(t *testing.T) {
	t.Parallel()
	said := map[Class]map[string]bool{}
	for _, w := range wordings {
		if said[w.class] == nil {
			said[w.class] = map[string]bool{}
		}
		said[w.class][w.provider] = true
	}
	for _, c := range []Class{ClassKeyRefused, ClassModelUnavailable, ClassPromptTooLong, ClassRequestTooLarge,
		ClassQuotaExhausted, ClassRateLimited, ClassServerError, ClassBadRequest, ClassContentRefused} {
		if len(said[c]) < 2 {
			t.Errorf("%s: told by %d providers' wordings, want at least 2", c, len(said[c]))
		}
	}
}

// TestNeverHealsByWaiting: what waiting never mends is not retried: the
// call goes to the participant's fallback at once. Each row is a defect
// the classification by status alone had: a 413 in plain text, a 400
// saying this key may use only other models, a 429 that is a quota, a 429
// for a request larger than any minute's limit, a prompt too long in
// words the rules did not know.
func TestNeverHealsByWaiting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reply scripted.Reply
		class Class
	}{
		{"a 413 in plain text", scripted.Reply{Status: 413, RawBody: "length limit exceeded", Headers: http.Header{"Content-Type": {"text/plain"}}},
			ClassRequestTooLarge},
		{"a 400: this key may use only other models", scripted.Raw(400, `{"error":{"message":"key not allowed to access model. This key can only access models=['m2']. Tried to access m","code":"400"}}`),
			ClassModelUnavailable},
		{"a 429 that is a quota", scripted.Raw(429, `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}`),
			ClassQuotaExhausted},
		{"a 429: one request over the minute's limit", scripted.Raw(429, `{"error":{"message":"Request too large for m in organization org-x on tokens per min (TPM): Limit 30000, Requested 50000.","type":"tokens","code":"rate_limit_exceeded"}}`),
			ClassRequestTooLarge},
		{"a prompt too long in other words", scripted.Raw(400, `{"error":{"message":"The total length of all messages is too long.","type":"too_many_prompt_tokens","code":400}}`),
			ClassPromptTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.reply.Headers = mergeHeader(tt.reply.Headers, "Retry-After", "1")
			_, err := completeOnce(t, tt.reply)
			e := asError(t, err)
			then := e.Class.Consequence()
			if e.Class != tt.class || then.Retry || !then.FallBack {
				t.Errorf("got %s (%+v): %v; want %s, no retry, the fallback at once", e.Class, then, e, tt.class)
			}
		})
	}
}

// mergeHeader returns h with k set to v, h itself untouched.
func mergeHeader(h http.Header, k, v string) http.Header {
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	out.Set(k, v)
	return out
}

// TestClassCodes: every class has a code of its own, stable words and a
// title; codes are what reports and machines read.
func TestClassCodes(t *testing.T) {
	t.Parallel()
	seen := map[string]Class{}
	for _, c := range Classes() {
		code := c.String()
		if code == "" || strings.ContainsAny(code, " _") || strings.ToLower(code) != code {
			t.Errorf("class %d: code %q, want lower-case words joined by '-'", int(c), code)
		}
		if prev, ok := seen[code]; ok {
			t.Errorf("classes %d and %d share the code %q", int(prev), int(c), code)
		}
		seen[code] = c
		if c.Title() == "" {
			t.Errorf("%s has no title", code)
		}
	}
	if ClassQuotaExhausted.String() != "quota-exhausted" || ClassPromptTooLong.String() != "prompt-too-long" {
		t.Errorf("codes changed: %s, %s", ClassQuotaExhausted, ClassPromptTooLong)
	}
}

// FuzzClassify: any 2xx, 4xx or 5xx that is no answer gets a known class; a
// 5xx is a server error and a 2xx an invalid response whatever its body
// says. (A client follows redirects: no 3xx reaches the classification.)
func FuzzClassify(f *testing.F) {
	for _, w := range wordings {
		f.Add(w.status, w.body)
	}
	f.Fuzz(func(t *testing.T, code int, body string) {
		if code = abs(code) % 300; code < 100 {
			code += 200 // a 2xx
		} else {
			code += 300 // a 4xx or 5xx
		}
		e := Classify(status(code, body))
		switch {
		case !e.Class.known() || e.Class == ClassOther:
			t.Errorf("%d %q: class %v", code, body, e.Class)
		case code >= 500 && e.Class != ClassServerError, code < 300 && e.Class != ClassInvalidResponse:
			t.Errorf("%d %q: %s", code, body, e.Class)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
