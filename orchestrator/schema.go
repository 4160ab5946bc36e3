package orchestrator

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/debatehq/debate/tree"
)

// schema is the JSON schema of an answer, sent to endpoints configured with
// api.responseFormat "json_schema" in strict mode. What OpenAI's strict mode
// and Gemini's OpenAI endpoint both accept: every object closed
// ("additionalProperties": false) with all its properties required, no
// "propertyNames", no map-typed objects.
type schema struct {
	name string
	body json.RawMessage
}

type object = map[string]any

func str() object { return object{"type": "string"} }

func list(items object) object { return object{"type": "array", "items": items} }

func obj(required []string, props object) object {
	return object{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

func mustSchema(name string, v object) *schema {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the literals below always encode
	}
	return &schema{name: name, body: b}
}

// judgmentSchema is the shape of a triage answer, or with forced of a
// forced-verdict answer; parties are the debater ids a side may name.
func judgmentSchema(forced bool, parties []string) *schema {
	party := object{"type": "string", "enum": parties}
	props := object{
		"consensus": list(obj([]string{"point", "detail"}, object{"point": str(), "detail": str()})),
		"divergences": list(obj([]string{"id", "title", "sides", "uninvolved"}, object{
			"id":    str(),
			"title": str(),
			// A list, not a map from party to claim: strict schemas take
			// no map-typed objects. listedSides maps it back.
			"sides":      list(obj([]string{"party", "claim"}, object{"party": party, "claim": str()})),
			"uninvolved": list(party),
		})),
	}
	// Each debater's stance after the rebuttals; toward is "" unless it
	// moved toward another party.
	props["stances"] = list(obj([]string{"party", "stance", "toward"}, object{
		"party":  party,
		"stance": object{"type": "string", "enum": []string{string(tree.StanceKept), string(tree.StanceMoved)}},
		"toward": str(),
	}))
	required := []string{"consensus", "divergences", "stances"}
	name := "triage"
	if forced {
		props["forcedVerdicts"] = list(verdictSchema(parties))
		required = append(required, "forcedVerdicts")
		name = "forced_verdicts"
	}
	return mustSchema(name, obj(required, props))
}

// verdictSchema is the shape of one forced verdict; favors is one of the
// parties or "none".
func verdictSchema(parties []string) object {
	favors := object{"type": "string", "enum": append(slices.Clone(parties), favorsNone)}
	return obj([]string{"divergenceId", "favors", "recommendation", "reasoning"}, object{
		"divergenceId": str(), "favors": favors, "recommendation": str(), "reasoning": str(),
	})
}

// panelSchema is the shape of a panel judge's answer: its forced verdicts on
// divergences already listed.
func panelSchema(parties []string) *schema {
	return mustSchema("panel_verdicts", obj([]string{"forcedVerdicts"}, object{"forcedVerdicts": list(verdictSchema(parties))}))
}

// The proposer's reply and the arbitrator's ruling in a motion.
var (
	replySchema = sync.OnceValue(func() *schema {
		return mustSchema("reply", obj([]string{"action", "content"}, object{
			"action":  object{"type": "string", "enum": []string{"claim", "appeal", "resolution"}},
			"content": str(),
		}))
	})
	rulingSchema = sync.OnceValue(func() *schema {
		return mustSchema("ruling", obj([]string{"close", "content"}, object{
			"close": object{"type": "boolean"}, "content": str(),
		}))
	})
)
