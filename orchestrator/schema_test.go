package orchestrator

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
)

// TestJudgeGetsItsSchema: an endpoint with api.responseFormat "json_schema"
// receives the judge's real schema (triage, then forced verdicts at the round
// limit, parties limited to the debaters' ids); debaters get none.
func TestJudgeGetsItsSchema(t *testing.T) {
	cfg := testConfig(2, "t1")
	cfg.API = configs.API{BaseURL: scripted.MemoryURL, APIKey: "sk-test-secret", ResponseFormat: "json_schema"}
	cfg.ApplyDefaults()
	s := &script{judge: map[string][]string{"root": {splitAnswer("Divergence " + mark("d1"))}}, words: 5}
	srv := providertest.New(t)
	srv.Script(func(c scripted.Call) scripted.Reply { return scriptReply(s, c) })
	client, err := providers.New(cfg, providers.Options{HTTPClient: srv.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := english(cfg, client, promptSet(t), Options{}).Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	type format struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name   string `json:"name"`
			Schema struct {
				Required   []string `json:"required"`
				Properties struct {
					Divergences struct {
						Items struct {
							Properties struct {
								Uninvolved struct {
									Items struct {
										Enum []string `json:"enum"`
									} `json:"items"`
								} `json:"uninvolved"`
							} `json:"properties"`
						} `json:"items"`
					} `json:"divergences"`
				} `json:"properties"`
			} `json:"schema"`
		} `json:"json_schema"`
	}
	var names []string
	for _, c := range srv.Calls() {
		var body struct {
			ResponseFormat *format `json:"response_format"`
		}
		if err := json.Unmarshal(c.Body, &body); err != nil {
			t.Fatal(err)
		}
		rf := body.ResponseFormat
		if c.Model != "model-j" {
			if rf != nil {
				t.Errorf("debater %s was sent a response format %+v", c.Model, rf)
			}
			continue
		}
		if rf == nil || rf.Type != "json_schema" {
			t.Fatalf("judge call without a json_schema response format: %s", c.Body)
		}
		sc := rf.JSONSchema.Schema
		names = append(names, rf.JSONSchema.Name)
		if parties := sc.Properties.Divergences.Items.Properties.Uninvolved.Items.Enum; !slices.Equal(parties, []string{"party-a", "party-b", "party-c"}) {
			t.Errorf("%s schema: parties %v", rf.JSONSchema.Name, parties)
		}
		wantRequired := []string{"consensus", "divergences", "stances"}
		if rf.JSONSchema.Name == "forced_verdicts" {
			wantRequired = append(wantRequired, "forcedVerdicts")
		}
		if !slices.Equal(sc.Required, wantRequired) {
			t.Errorf("%s schema requires %v, want %v", rf.JSONSchema.Name, sc.Required, wantRequired)
		}
	}
	if !slices.Equal(names, []string{"triage", "forced_verdicts"}) {
		t.Errorf("judge schemas %v, want triage at root then forced_verdicts at d1", names)
	}
}

// TestSchemasAreStrict walks every schema the program sends: what OpenAI's
// strict mode and Gemini's OpenAI endpoint accept — every object closed
// with all its properties required, no propertyNames, no map-typed object.
func TestSchemasAreStrict(t *testing.T) {
	t.Parallel()
	for _, sc := range []*schema{judgmentSchema(false, []string{"a", "b"}), judgmentSchema(true, []string{"a", "b"}), replySchema(), rulingSchema()} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			var v any
			if err := json.Unmarshal(sc.body, &v); err != nil {
				t.Fatal(err)
			}
			var walk func(path string, v any)
			walk = func(path string, v any) {
				m, ok := v.(map[string]any)
				if !ok {
					return
				}
				if _, ok := m["propertyNames"]; ok {
					t.Errorf("%s: propertyNames", path)
				}
				if m["type"] == "object" {
					if m["additionalProperties"] != false {
						t.Errorf("%s: additionalProperties %v, want false", path, m["additionalProperties"])
					}
					props, _ := m["properties"].(map[string]any)
					var required []string
					for _, r := range m["required"].([]any) {
						required = append(required, r.(string))
					}
					for k, p := range props {
						if !slices.Contains(required, k) {
							t.Errorf("%s: property %q not required", path, k)
						}
						walk(path+"."+k, p)
					}
				}
				if items, ok := m["items"]; ok {
					walk(path+"[]", items)
				}
			}
			walk(sc.name, v)
		})
	}
}

// TestListedSides: a judgment in the strict schema's shape, sides as a list
// of {party, claim}, maps back to the judgment's sides by party.
func TestListedSides(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, answer string
		want         map[string]string
	}{
		{"list of party and claim", `{"consensus":[],"divergences":[{"id":"x","title":"T","sides":[{"party":"a","claim":"yes"},{"party":"b","claim":"no"}],"uninvolved":[]}]}`,
			map[string]string{"a": "yes", "b": "no"}},
		{"map as in the prompt", `{"consensus":[],"divergences":[{"id":"x","title":"T","sides":{"a":"yes","b":"no"},"uninvolved":[]}]}`,
			map[string]string{"a": "yes", "b": "no"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			j, err := unpack(parseJudgment(tt.answer, nil, false, []string{"a", "b"}))
			if err != nil {
				t.Fatal(err)
			}
			if got := j.Divergences[0].Sides; !maps.Equal(got, tt.want) {
				t.Errorf("sides %v, want %v", got, tt.want)
			}
		})
	}
}
