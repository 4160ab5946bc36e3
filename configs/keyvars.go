package configs

// KeyVariable returns the environment variable whose ${NAME} reference
// supplied the API key of participantID's endpoint ("" for the top-level
// api), or "" when the key was written in the file or not set. It is meant
// for the hint of a refused key: it names the variable, never its value.
func (c *Config) KeyVariable(participantID string) string {
	return c.keyVars[participantID]
}

// rememberKeyVariables records which variable supplied each endpoint's
// key, given the variables of the api.apiKey fields by value; the values
// are not kept.
func (c *Config) rememberKeyVariables(byValue map[string]string) {
	if len(byValue) == 0 {
		return
	}
	c.keyVars = map[string]string{}
	ids := []string{""}
	for _, p := range c.Participants() {
		ids = append(ids, p.ID)
	}
	for _, id := range ids {
		if name, ok := byValue[c.Endpoint(id).APIKey]; ok {
			c.keyVars[id] = name
		}
	}
}
